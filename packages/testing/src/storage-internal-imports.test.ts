import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'

const storage = join(import.meta.dirname, '..', '..', 'storage')

/**
 * The names of `@mailroom/core/internal` storage may import: what storage genuinely shares with core, and the use
 * cases' factories it wires over its stores. A flow that moves to core leaves this list; a storage file importing
 * a name outside it is a flow (parse, look up, perimeter, check, write) growing back in storage. The journal's
 * writes and an attachment's removal are flows still to move (docs/architecture.md, "Use cases and ports").
 */
const STORAGE_MAY_IMPORT = new Set([
  // The use cases storage wires over its stores.
  'createCriteriaSearchUseCases',
  'createActionsUseCases',
  'createDiffusionListUseCases',
  'createLinksUseCases',
  'createNotesUseCases',
  'createRecordsUseCases',
  'createSearchUseCases',
  'createStatusUseCases',
  'createAttachment',
  'createAttachmentReads',
  'createContentReads',
  'createJournalUseCases',
  'createNewVersion',
  'createBasketsUseCases',
  // A basket's clause in the clause language (as expandMacros for groups), its refusal when the database refuses
  // it, the list's query core read, and the category labels a basket's filters name.
  'basketClauseTree',
  'basketClauseRefusal',
  'BasketListQuery',
  'NullableFilter',
  'CATEGORY_LABELS',
  // What the clause compiler and the perimeter's SQL need of core's clause language and actors.
  'SEARCH_VIEW_NAME',
  'fullTextQueries',
  'expandMacros',
  'PerimeterContext',
  'PerimeterEntity',
  // A basket's clause, read for its owner (branch baskets-read).
  'BasketClauseSource',
  'basketClauseTree',
  'displayName',
  'isRoot',
  'primaryEntityOf',
  'chronoPlan',
  // Organisation import and its plan.
  'INDEXING_KEYWORDS',
  'ORGANISATION_SECTIONS',
  'describePlan',
  'isEmptyPlan',
  'summarisePlan',
  // An attachment's types, and its removal, still checked in storage.
  'attachmentTypesBody',
  'parseAttachmentRemovalId',
  'AttachmentToRemove',
  'attachmentRemovalHistory',
  'checkAttachmentRemoval',
  'removedVersionsRoot',
  // The journal: its events and their hash chain, written by storage's writers and sealer.
  'ARCHIVE_OBJECT_CLASS',
  'DepositEventInput',
  'JournalActor',
  'JournalBuilderDeps',
  'JournalChainPosition',
  'UnhashedJournalEvent',
  'buildConsultationEvent',
  'buildDepositEvent',
  'buildIntegrityCheckEvent',
  'buildJournalReadEvent',
  'buildNewResourceEvent',
  'buildPendingConsultationEvent',
  'buildPendingDepositEvent',
  'buildSafeDirectory',
  'chainPositionAfter',
  'computeEventHash',
  'createJournalEventIdGenerator',
  'parseJournalQuery',
  'selectJournalPage',
  'toLifeCycleEvent',
  // Tests only: they build requests and answers the way the adapters do.
  'parseSearchRequest',
  'parseSearchCriteria',
  'streamSearchResult',
])

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    if (name === 'node_modules' || name === 'dist') return []
    const path = join(dir, name)
    if (statSync(path).isDirectory()) return sourceFiles(path)
    return /\.tsx?$/.test(name) ? [path] : []
  })
}

/** The names a source text imports from @mailroom/core/internal (`type` and `as` stripped). */
function internalImportsOf(text: string): string[] {
  const names: string[] = []
  for (const match of text.matchAll(/import\s+(?:type\s+)?\{([^}]*)\}\s*from\s*['"]@mailroom\/core\/internal['"]/g)) {
    for (const part of (match[1] ?? '').split(',')) {
      const name = part
        .trim()
        .replace(/^type\s+/, '')
        .replace(/\s+as\s+\w+$/, '')
      if (name !== '') names.push(name)
    }
  }
  return names
}

describe('storage and @mailroom/core/internal', () => {
  it('reads every form of import storage writes', () => {
    expect(
      internalImportsOf(
        'import { a, type B, c as d } from \'@mailroom/core/internal\'\nimport type {\n  E,\n} from "@mailroom/core/internal"',
      ),
    ).toEqual(['a', 'B', 'c', 'E'])
  })

  it('imports only the names core shares with storage (a flow moved to core does not grow back)', () => {
    const offenders = sourceFiles(storage).flatMap((file) =>
      internalImportsOf(readFileSync(file, 'utf8'))
        .filter((name) => !STORAGE_MAY_IMPORT.has(name))
        .map((name) => `${file.slice(storage.length + 1)}: ${name}`),
    )
    expect(offenders).toEqual([])
  })
})

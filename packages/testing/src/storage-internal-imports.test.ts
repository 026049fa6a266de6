import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'

const packages = join(import.meta.dirname, '..', '..')
const storage = join(packages, 'storage')
const internalEntry = join(packages, 'core', 'src', 'internal.ts')

/**
 * The most names `@mailroom/core/internal` may export (issue #52: under 30). It holds what Mailroom's own packages
 * genuinely share with core: the use cases' factories are public (`@mailroom/core`), what only tests call is
 * reached through `packages/testing/src/test-core-internals.ts`.
 */
const INTERNAL_NAMES_LIMIT = 29

/**
 * The names of `@mailroom/core/internal` storage may import: what storage genuinely shares with core. Storage
 * implements ports; the composition root (`packages/mailroom`) builds the use cases over them, so no use case
 * factory is here. A storage file importing a name outside this list is a flow (parse, look up, perimeter,
 * check, write) growing back in storage (docs/architecture.md, "Use cases and ports").
 */
const STORAGE_MAY_IMPORT = new Set([
  // What the clause compiler and the perimeter's SQL need of core's clause language and actors.
  'SEARCH_VIEW_NAME',
  'fullTextQueries',
  'expandMacros',
  'PerimeterContext',
  'PerimeterEntity',
  'isRoot',
  'primaryEntityOf',
  // A chrono's pattern, filled under the counter's lock.
  'chronoPlan',
  // The organisation document's sections and keywords, and the plan's wording, applied in one transaction.
  'INDEXING_KEYWORDS',
  'ORGANISATION_SECTIONS',
  'describePlan',
  'isEmptyPlan',
  'summarisePlan',
  // The journal: core's recorder words the events and places them on their chain; storage persists and seals.
  'ARCHIVE_OBJECT_CLASS',
  'buildSafeDirectory',
  'createJournalRecorder',
  'JournalRecorder',
  'PendingJournalEvent',
  'linkJournalEvent',
])

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    if (name === 'node_modules' || name === 'dist') return []
    const path = join(dir, name)
    if (statSync(path).isDirectory()) return sourceFiles(path)
    return /\.tsx?$/.test(name) ? [path] : []
  })
}

/** The names the entry exports (`export { a, type B } from …`, `export type { C } from …`). */
function exportedNames(text: string): string[] {
  return [...text.matchAll(/export\s+(?:type\s+)?\{([^}]*)\}/g)].flatMap((match) =>
    (match[1] ?? '')
      .split(',')
      .map((part) => part.trim().replace(/^type\s+/, ''))
      .filter((name) => name !== ''),
  )
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

describe('@mailroom/core/internal and what storage imports of it', () => {
  it('reads every form of import storage writes', () => {
    expect(
      internalImportsOf(
        'import { a, type B, c as d } from \'@mailroom/core/internal\'\nimport type {\n  E,\n} from "@mailroom/core/internal"',
      ),
    ).toEqual(['a', 'B', 'c', 'E'])
    expect(exportedNames("export { a, type B } from './a.js'\nexport type {\n  C,\n  D,\n} from './c.js'")).toEqual([
      'a',
      'B',
      'C',
      'D',
    ])
  })

  it(`exports at most ${INTERNAL_NAMES_LIMIT} names, each imported by production code outside core`, () => {
    const names = exportedNames(readFileSync(internalEntry, 'utf8'))
    expect(names.length).toBeLessThanOrEqual(INTERNAL_NAMES_LIMIT)
    const production = readdirSync(packages)
      .filter((name) => name !== 'core' && statSync(join(packages, name, 'src'), { throwIfNoEntry: false }))
      .flatMap((name) => sourceFiles(join(packages, name, 'src')))
      .filter((file) => !/\.test\.tsx?$/.test(file) && !file.includes(`${join('testing', 'src')}`))
    const imported = new Set(production.flatMap((file) => internalImportsOf(readFileSync(file, 'utf8'))))
    // A name only tests use belongs in test-core-internals.ts, not in the entry.
    expect(names.filter((name) => !imported.has(name))).toEqual([])
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

import { readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { importGraph } from '../../testing/src/module-graph/import-graph.js'

/**
 * Storage's layers, lowest first (docs/architecture.md, "Storage"): a file may import its own layer and the
 * layers below, never one above. Each entry names a folder (`docserver/`) or a file; the longest that
 * matches a file gives its layer.
 */
const LAYERS: readonly (readonly string[])[] = [
  // The database (schema, migrations, opening) and the log.
  ['database/', 'logger.ts'],
  // Files: the document stores, storage areas, digests.
  ['docserver/'],
  // The journal of what was done, over rows and files; the clause compiler (perimeter and search compile with it).
  ['journal/', 'search/compile-clause.ts', 'search/indexed-alternatives.ts', 'search/row-failures.ts'],
  // Who may see what.
  ['perimeter/'],
  // What every capability is handed: the database, the files, the journal, the perimeter.
  ['storage-context.ts'],
  // The capabilities, each in its room: its repositories and readers.
  [
    'actions/',
    'attachments/',
    'baskets/',
    'baskets-administration/',
    'contacts/',
    'content/',
    'criteria-search/',
    'custom-fields/',
    'diffusion-list/',
    'doctypes/',
    'entities/',
    'folders/',
    'fulltext/',
    'history/',
    'indexing-models/',
    'links/',
    'list-templates/',
    'notes/',
    'observability/',
    'organisation/',
    'parameters/',
    'priorities/',
    'processing-page/',
    'records/',
    'reference/',
    'search/',
    'security/',
    'status/',
    'statuses/',
    'tags/',
    'users/',
  ],
  // What a capability hands core's use cases, built from the context (the composition root wires them).
  ['*/*-ports.ts'],
  // The package's API.
  ['index.ts'],
]

const src = dirname(fileURLToPath(import.meta.url))

/** The layer of a file (its index in LAYERS), by the longest entry naming it; -1 when none does. */
function layerOf(file: string): number {
  let found = -1
  let longest = -1
  LAYERS.forEach((entries, layer) => {
    for (const entry of entries) {
      const matches = entry.startsWith('*/')
        ? new RegExp(`^[^/]+/${entry.slice(2).replace('.', '\\.').replace('*', '[^/]+')}$`).test(file)
        : entry.endsWith('/')
          ? file.startsWith(entry)
          : file === entry
      // A pattern for a file names it more closely than any folder.
      const weight = entry.startsWith('*/') ? Number.MAX_SAFE_INTEGER : entry.length
      if (matches && weight > longest) {
        found = layer
        longest = weight
      }
    }
  })
  return found
}

const productionFiles = [...importGraph(src)].filter(([file]) => !file.endsWith('.test.ts'))

describe('storage layers', () => {
  it('places every production file in a layer', () => {
    expect(productionFiles.map(([file]) => file).filter((file) => layerOf(file) < 0)).toEqual([])
  })

  it('has no import pointing up a layer', () => {
    const upward = productionFiles.flatMap(([file, imports]) =>
      imports.filter((target) => layerOf(target) > layerOf(file)).map((target) => `${file} -> ${target}`),
    )
    expect(upward).toEqual([])
  })

  it('reads the table as declared', () => {
    expect([
      layerOf('database/schema.ts'),
      layerOf('docserver/storage-areas.ts'),
      layerOf('search/compile-clause.ts'),
      layerOf('search/run-search.ts'),
      layerOf('records/records-ports.ts'),
      layerOf('index.ts'),
    ]).toEqual([0, 1, 2, 5, 6, 7])
  })
})

/**
 * Files that still do by hand what docserver/ does once, in flows moving to core elsewhere (issue #52, item 4:
 * branch h52-reads): to be emptied as those land.
 */
const STILL_BY_HAND: string[] = []

/** The production files outside docserver/ whose source matches a pattern. */
const outsideDocserverMatching = (pattern: RegExp) =>
  productionFiles
    .map(([file]) => file)
    .filter((file) => !file.startsWith('docserver/'))
    .filter((file) => pattern.test(readFileSync(join(src, file), 'utf8')))

describe("storage's repeated steps, written once in docserver/", () => {
  it('chooses a writable storage area only through storage-areas.ts', () => {
    expect(outsideDocserverMatching(/\bis_readonly\b/).filter((file) => !file.startsWith('database/'))).toEqual(
      STILL_BY_HAND,
    )
  })

  it('removes a written file only through file-then-rows.ts (the file of rows that failed)', () => {
    expect(outsideDocserverMatching(/\.remove\(/)).toEqual(STILL_BY_HAND)
  })
})

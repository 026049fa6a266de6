import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { findImportCycles, importGraph } from '@mailroom/testing'
import { describe, expect, it } from 'vitest'

/** The importer's rooms (docs/architecture.md, "The Maarch importer"): small files whose imports point one way. */
const src = dirname(fileURLToPath(import.meta.url))
const graph = importGraph(src)

/** Longest a file of the package may grow before it is split along its parts. */
const MOST_LINES = 500

describe('import-maarch layout', () => {
  it(`keeps every file of src under ${MOST_LINES} lines`, () => {
    const long = [...graph.keys()]
      .map((file) => [file, readFileSync(join(src, file), 'utf8').split('\n').length - 1] as const)
      .filter(([, lines]) => lines > MOST_LINES)
    expect(long).toEqual([])
  })

  it('has no import loop between its files', () => {
    expect(findImportCycles(src)).toEqual([])
  })

  it('lets no part of the importer import delta/: only the run that picks a full or a delta run does', () => {
    const importers = [...graph]
      .filter(([file]) => !file.startsWith('delta/') && !file.endsWith('.test.ts'))
      .filter(([, imports]) => imports.some((target) => target.startsWith('delta/')))
      .map(([file]) => file)
    expect(importers).toEqual(['import-maarch.ts'])
  })

  it('names each file of verify/ after what it exports', () => {
    const misnamed = readdirSync(join(src, 'verify'))
      .filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts'))
      .filter((name) => {
        // verify-records.ts: an export whose name starts with verifyRecords (or VerifyRecords).
        const stem = name.slice(0, -'.ts'.length).replace(/-(\w)/g, (_, letter: string) => letter.toUpperCase())
        const exported = [
          ...readFileSync(join(src, 'verify', name), 'utf8').matchAll(
            /^export\s+(?:async\s+)?(?:function|class|const|type|interface)\s+(\w+)/gm,
          ),
        ].map((match) => (match[1] as string).toLowerCase())
        return !exported.some((exportName) => exportName.startsWith(stem.toLowerCase()))
      })
    expect(misnamed).toEqual([])
  })
})

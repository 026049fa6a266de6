import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import fc from 'fast-check'
import { afterEach, describe, expect, it } from 'vitest'
import { findImportCycles, importGraph, relativeSpecifiers } from './import-graph.js'

const folders: string[] = []
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true })
})

/** A folder holding these files (path from the folder: content). */
function folderOf(files: Record<string, string>): string {
  const folder = mkdtempSync(join(tmpdir(), 'import-graph-'))
  folders.push(folder)
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(folder, path)), { recursive: true })
    writeFileSync(join(folder, path), content)
  }
  return folder
}

describe('relativeSpecifiers', () => {
  it('reads static, type-only, multi-line, re-exported, side-effect and dynamic imports', () => {
    const source = [
      `import { a } from './a.js'`,
      `import type { B } from "../b.js"`,
      `import {`,
      `  c,`,
      `  type C,`,
      `} from './c/index.js'`,
      `export { d } from './d.js'`,
      `export type { E } from './e.js'`,
      `import './f.js'`,
      `const g = await import('./g.js')`,
      `import { h } from '@mailroom/core'`,
      `import { readFile } from 'node:fs/promises'`,
    ].join('\n')
    expect(relativeSpecifiers(source)).toEqual([
      './a.js',
      '../b.js',
      './c/index.js',
      './d.js',
      './e.js',
      './f.js',
      './g.js',
    ])
  })

  it('leaves out what comments show: a JSDoc example, a commented-out import', () => {
    const source = [
      '/**',
      ' * @example',
      ` * import { x } from './x.js'`,
      ' */',
      `// import { y } from './y.js'`,
      `import { z } from './z.js'`,
    ].join('\n')
    expect(relativeSpecifiers(source)).toEqual(['./z.js'])
  })
})

describe('importGraph', () => {
  it('resolves .js, extensionless and folder specifiers to the folder files, leaving out what lies outside', () => {
    const folder = folderOf({
      'index.ts': `export { a } from './a.js'\nexport { b } from './b'\nexport { c } from './c/index.js'\n`,
      'a.ts': `import { x } from '../outside.js'\nimport { k } from 'kysely'\nexport const a = 1\n`,
      'b.ts': `import { c } from './c'\nexport const b = c\n`,
      'c/index.ts': `import type { A } from '../a.js'\nexport const c = 3\n`,
      'c/notes.md': `import { a } from '../a.js'\n`,
    })
    expect(Object.fromEntries(importGraph(folder))).toEqual({
      'a.ts': [],
      'b.ts': ['c/index.ts'],
      'c/index.ts': ['a.ts'],
      'index.ts': ['a.ts', 'b.ts', 'c/index.ts'],
    })
  })
})

describe('findImportCycles', () => {
  it('finds none where the imports point one way', () => {
    const folder = folderOf({
      'index.ts': `export { run } from './run.js'\n`,
      'run.ts': `import { part } from './parts/part.js'\nexport const run = part\n`,
      'parts/part.ts': `export const part = 1\n`,
    })
    expect(findImportCycles(folder)).toEqual([])
  })

  it('names each loop by the files it goes through, type-only imports and subfolders included', () => {
    const folder = folderOf({
      'import.ts': `import { changes } from './delta/changes.js'\nexport const run = changes\n`,
      'report.ts': `import type { DeltaSummary } from './delta/changes.js'\nexport type Report = DeltaSummary\n`,
      'delta/changes.ts': `import type { Report } from '../report.js'\nexport type DeltaSummary = { a: 1 }\nexport const changes = 1\n`,
      'self.ts': `import { me } from './self.js'\nexport const me = 1\n`,
      'apart.ts': `export const apart = 1\n`,
    })
    expect(findImportCycles(folder)).toEqual([['delta/changes.ts', 'report.ts'], ['self.ts']])
  })

  it('finds a loop exactly where the folder has one (property, against a reachability check)', () => {
    const graphs = fc.integer({ min: 1, max: 7 }).chain((n) =>
      fc.tuple(
        fc.constant(n),
        fc.uniqueArray(fc.tuple(fc.nat(n - 1), fc.nat(n - 1)), {
          maxLength: 14,
          selector: ([a, b]) => `${a}>${b}`,
        }),
      ),
    )
    fc.assert(
      fc.property(graphs, ([n, edges]) => {
        const name = (i: number) => (i % 2 === 0 ? `m${i}.ts` : `sub/m${i}.ts`)
        const files: Record<string, string> = {}
        for (let i = 0; i < n; i++) {
          const imports = edges
            .filter(([from]) => from === i)
            .map(([, to]) => {
              const path = i % 2 === 0 ? `./${name(to)}` : to % 2 === 0 ? `../${name(to)}` : `./m${to}.ts`
              return `import { v${to} } from '${path.replace(/\.ts$/, '.js')}'\n`
            })
          files[name(i)] = `${imports.join('')}export const v${i} = ${i}\n`
        }
        const cycles = findImportCycles(folderOf(files))
        rmSync(folders.pop() as string, { recursive: true, force: true })
        // The reference: a node on a loop reaches itself.
        const reaches = (from: number, to: number): boolean => {
          const seen = new Set<number>()
          const queue = edges.filter(([a]) => a === from).map(([, b]) => b)
          for (let node = queue.shift(); node !== undefined; node = queue.shift()) {
            if (node === to) return true
            if (seen.has(node)) continue
            seen.add(node)
            queue.push(...edges.filter(([a]) => a === node).map(([, b]) => b))
          }
          return false
        }
        const onLoops = Array.from({ length: n }, (_, i) => i).filter((i) => reaches(i, i))
        expect(cycles.length > 0).toBe(onLoops.length > 0)
        for (const file of cycles.flat()) expect(onLoops.map(name)).toContain(file)
        // Each loop named goes through imports that exist, back to where it started.
        const graph = new Map(Array.from({ length: n }, (_, i) => [name(i), i] as const))
        for (const loop of cycles)
          loop.forEach((file, at) => {
            const next = loop[(at + 1) % loop.length] as string
            expect(edges).toContainEqual([graph.get(file), graph.get(next)])
          })
      }),
      { numRuns: 60 },
    )
  })
})

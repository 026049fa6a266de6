import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const SOURCE = dirname(fileURLToPath(import.meta.url))

/** The adapter's production modules (tests left out: a test importing what it tests is no loop of the adapter). */
function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return sourceFiles(path)
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : []
  })
}

/** The relative modules a file imports or re-exports, type-only ones included (they tie the files as much). */
function localImports(file: string): string[] {
  const text = readFileSync(file, 'utf8')
  return [...text.matchAll(/^\s*(?:import|export)\b[^'";]*?\bfrom\s+['"](\.{1,2}\/[^'"]+)['"]/gm)].map((match) =>
    resolve(dirname(file), (match[1] as string).replace(/\.js$/, '.ts')),
  )
}

/**
 * The loops of the import graph: each strongly connected set of two or more files (Tarjan's algorithm), as
 * paths relative to `root`, sorted. A minimal stand-in for a shared `findImportCycles` helper.
 */
function importLoops(root: string, files: readonly string[], importsOf: (file: string) => string[]): string[][] {
  const known = new Set(files)
  const order = new Map<string, number>()
  const lowest = new Map<string, number>()
  const stack: string[] = []
  const loops: string[][] = []
  const visit = (file: string) => {
    order.set(file, order.size)
    lowest.set(file, order.get(file) as number)
    stack.push(file)
    for (const next of importsOf(file).filter((imported) => known.has(imported))) {
      if (!order.has(next)) {
        visit(next)
        lowest.set(file, Math.min(lowest.get(file) as number, lowest.get(next) as number))
      } else if (stack.includes(next)) lowest.set(file, Math.min(lowest.get(file) as number, order.get(next) as number))
    }
    if (lowest.get(file) !== order.get(file)) return
    const loop = stack.splice(stack.indexOf(file))
    if (loop.length > 1) loops.push(loop.map((member) => relative(root, member)).sort())
  }
  for (const file of files) if (!order.has(file)) visit(file)
  return loops
}

describe('imports between the adapter’s files', () => {
  it('form no loop: a module never needs, even for a type, one that needs it back', () => {
    expect(importLoops(SOURCE, sourceFiles(SOURCE), localImports)).toEqual([])
  })

  it('are all seen, type-only and re-exports included (the check finds a loop written either way)', () => {
    const files = ['/a.ts', '/b.ts', '/c.ts', '/d.ts']
    const graph: Record<string, string[]> = { '/a.ts': ['/b.ts'], '/b.ts': ['/c.ts'], '/c.ts': ['/a.ts'], '/d.ts': [] }
    expect(importLoops('/', files, (file) => graph[file] ?? [])).toEqual([['a.ts', 'b.ts', 'c.ts']])
    expect(localImports(join(SOURCE, 'middleware', 'error-handler.ts'))).toContain(join(SOURCE, 'app-state.ts'))
    expect(localImports(join(SOURCE, 'index.ts'))).toContain(join(SOURCE, 'routes', 'route-declaration.ts'))
  })
})

import { readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve, sep } from 'node:path'

/**
 * The relative imports between the TypeScript files of a folder (its subfolders included): each file, by its
 * path from the folder with `/` separators, to the files of the folder it imports, sorted. Type-only imports
 * count (a loop of types is a loop of concepts all the same); imports of packages and of files outside the
 * folder are left out. `./x.js`, `./x.ts`, `./x` and `./x/index.js` all name `x.ts` or `x/index.ts`, as
 * TypeScript resolves them.
 */
export function importGraph(dir: string): Map<string, string[]> {
  const root = resolve(dir)
  const files = typeScriptFiles(root)
  const known = new Set(files)
  const graph = new Map<string, string[]>()
  for (const file of files) {
    const from = dirname(join(root, file))
    const targets = new Set<string>()
    for (const specifier of relativeSpecifiers(readFileSync(join(root, file), 'utf8'))) {
      const target = resolveWithin(root, from, specifier, known)
      if (target !== null) targets.add(target)
    }
    graph.set(file, [...targets].sort())
  }
  return graph
}

/**
 * The import loops between the files of a folder (see importGraph): one loop for each group of files that
 * import each other (directly or not), as the files it goes through, from the group's first file in sorted
 * order along the imports back to it, shortest first; loops sorted. A file importing itself is a loop of
 * one. Empty when the files' imports form no loop.
 */
export function findImportCycles(dir: string): string[][] {
  const graph = importGraph(dir)
  return stronglyConnected(graph)
    .filter((group) => group.length > 1 || (graph.get(group[0] as string) ?? []).includes(group[0] as string))
    .map((group) => loopThrough(graph, new Set(group)))
    .sort((a, b) => (a.join(' ') < b.join(' ') ? -1 : 1))
}

/** The specifiers of a file's relative imports: static, re-exports, side-effect and dynamic ones. */
export function relativeSpecifiers(source: string): string[] {
  // Lines inside block comments (JSDoc examples start with `*`) and line comments hold no imports.
  const code = source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '')
  const found: string[] = []
  const patterns = [
    /^\s*(?:import|export)\s[^'"`;]*?\sfrom\s*['"](\.{1,2}\/[^'"]*|\.{1,2})['"]/gm,
    /^\s*import\s*['"](\.{1,2}\/[^'"]*)['"]/gm,
    /\bimport\(\s*['"](\.{1,2}\/[^'"]*)['"]\s*\)/g,
  ]
  for (const pattern of patterns) for (const match of code.matchAll(pattern)) found.push(match[1] as string)
  return found
}

function typeScriptFiles(root: string, under = root): string[] {
  return readdirSync(under)
    .sort()
    .flatMap((name) => {
      if (name === 'node_modules' || name === 'dist') return []
      const path = join(under, name)
      if (statSync(path).isDirectory()) return typeScriptFiles(root, path)
      return /\.(ts|tsx|mts|cts)$/.test(name) && !name.endsWith('.d.ts') ? [posix(relative(root, path))] : []
    })
}

function resolveWithin(root: string, from: string, specifier: string, known: ReadonlySet<string>): string | null {
  const path = posix(relative(root, resolve(from, specifier)))
  if (path.startsWith('..')) return null
  const stem = path.replace(/\.(js|jsx|mjs|cjs|ts|tsx|mts|cts)$/, '')
  const candidates = [path, `${stem}.ts`, `${stem}.tsx`, `${stem}.mts`, `${stem}.cts`, `${path}/index.ts`]
  return candidates.find((candidate) => known.has(candidate)) ?? null
}

const posix = (path: string) => path.split(sep).join('/')

/** Tarjan's strongly connected components, each sorted. */
function stronglyConnected(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const onStack = new Set<string>()
  const groups: string[][] = []
  const visit = (node: string) => {
    index.set(node, index.size)
    low.set(node, index.get(node) as number)
    stack.push(node)
    onStack.add(node)
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next)
        low.set(node, Math.min(low.get(node) as number, low.get(next) as number))
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node) as number, index.get(next) as number))
    }
    if (low.get(node) === index.get(node)) {
      const group: string[] = []
      for (let member = stack.pop(); member !== undefined; member = stack.pop()) {
        onStack.delete(member)
        group.push(member)
        if (member === node) break
      }
      groups.push(group.sort())
    }
  }
  for (const node of [...graph.keys()].sort()) if (!index.has(node)) visit(node)
  return groups
}

/** One loop through a group of files that import each other: from its first file back to it, shortest first. */
function loopThrough(graph: ReadonlyMap<string, readonly string[]>, group: ReadonlySet<string>): string[] {
  const start = [...group].sort()[0] as string
  // Breadth first inside the group: the shortest way from the start back to it.
  const cameFrom = new Map<string, string>()
  const queue = [start]
  for (let node = queue.shift(); node !== undefined; node = queue.shift()) {
    for (const next of graph.get(node) ?? []) {
      if (!group.has(next)) continue
      if (next === start) {
        const loop = [node]
        for (let back = cameFrom.get(node); back !== undefined; back = cameFrom.get(back)) loop.unshift(back)
        return loop
      }
      if (!cameFrom.has(next) && next !== start) {
        cameFrom.set(next, node)
        queue.push(next)
      }
    }
  }
  return [start]
}

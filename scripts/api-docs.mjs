#!/usr/bin/env node
// Public API reference from the JSDoc of each package's entry points (TypeScript 7 has no compiler API for
// TypeDoc, so this follows `export` statements itself). `node scripts/api-docs.mjs` writes docs/api/*.md;
// `collectPublicApi()` is also what the test uses to fail on an export without a doc comment.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')

/** The entry points whose exports are public API. */
export const ENTRY_POINTS = [
  { name: '@mailroom/core', file: 'packages/core/src/index.ts' },
  { name: '@mailroom/storage', file: 'packages/storage/src/index.ts' },
  { name: '@mailroom/object-store', file: 'packages/object-store/src/index.ts' },
  { name: '@mailroom/documents', file: 'packages/documents/src/index.ts' },
  { name: '@mailroom/mailroom', file: 'packages/mailroom/src/index.ts' },
  { name: '@mailroom/http-koa', file: 'packages/http-koa/src/index.ts' },
  { name: '@mailroom/sdk', file: 'packages/sdk/src/index.ts' },
]

const DECLARATION =
  /^export\s+(?:declare\s+)?(?:default\s+)?(?:async\s+)?(function\*?|class|abstract\s+class|interface|type|const|let|enum)\s+([A-Za-z_$][\w$]*)/gm

function sourceOf(fromFile, specifier) {
  // A re-export from another package of the workspace documents itself where that package declares it.
  const workspace = /^@mailroom\/([\w-]+)$/.exec(specifier)
  if (workspace) return [join(root, 'packages', workspace[1], 'src/index.ts')].find((file) => existsSync(file)) ?? null
  if (!specifier.startsWith('.')) return null
  const base = resolve(dirname(fromFile), specifier.replace(/\.js$/, ''))
  for (const candidate of [`${base}.ts`, join(base, 'index.ts')]) if (existsSync(candidate)) return candidate
  return null
}

function stripComments(text) {
  return text
    .replace(/\/\*[\s\S]*?\*\//g, (m) => m.replace(/[^\n]/g, ' '))
    .replace(/\/\/[^\n]*/g, (m) => ' '.repeat(m.length))
}

/** The JSDoc right above `index` in `text` (only blank space and `@`-decorators may separate them). */
function docAbove(text, index) {
  const before = text.slice(0, index).replace(/\s+$/, '')
  if (!before.endsWith('*/')) return null
  const start = before.lastIndexOf('/**')
  if (start < 0) return null
  return before
    .slice(start + 3, -2)
    .split('\n')
    .map((line) => line.replace(/^\s*\*\s?/, ''))
    .join('\n')
    .trim()
}

const cache = new Map()

/** Declarations and re-exports of one file: name -> { file, kind, doc, signature }. */
function exportsOf(file, seen = new Set()) {
  if (cache.has(file)) return cache.get(file)
  if (seen.has(file)) return new Map()
  seen.add(file)
  const text = readFileSync(file, 'utf8')
  const code = stripComments(text)
  const result = new Map()
  for (const match of code.matchAll(DECLARATION)) {
    const lineEnd = text.indexOf('\n', match.index)
    result.set(match[2], {
      file,
      kind: match[1].replace(/\s+/g, ' '),
      doc: docAbove(text, match.index),
      signature: text.slice(match.index, lineEnd < 0 ? undefined : lineEnd).trim(),
    })
  }
  for (const match of code.matchAll(/^export\s+(type\s+)?\{([^}]*)\}\s*from\s*['"]([^'"]+)['"]/gm)) {
    const target = sourceOf(file, match[3])
    const targetExports = target ? exportsOf(target, seen) : new Map()
    for (const part of match[2]
      .split(',')
      .map((p) => p.trim())
      .filter(Boolean)) {
      const [original, alias] = part.replace(/^type\s+/, '').split(/\s+as\s+/)
      const found = targetExports.get(original)
      result.set(
        alias ?? original,
        found ?? { file: target ?? match[3], kind: 'external', doc: target ? null : 'external', signature: '' },
      )
    }
  }
  for (const match of code.matchAll(/^export\s+\*\s+from\s*['"]([^'"]+)['"]/gm)) {
    const target = sourceOf(file, match[1])
    if (!target) continue
    for (const [name, entry] of exportsOf(target, seen)) if (!result.has(name)) result.set(name, entry)
  }
  // `export { a, b }` without `from`: local declarations exported later.
  for (const match of code.matchAll(/^export\s+(type\s+)?\{([^}]*)\}\s*(?!from)$/gm)) {
    for (const part of match[2]
      .split(',')
      .map((p) => p.trim())
      .filter(Boolean)) {
      const name = part.replace(/^type\s+/, '').split(/\s+as\s+/)[0]
      const declared = new RegExp(
        `^(?:declare\\s+)?(?:async\\s+)?(?:function|class|interface|type|const|let|enum)\\s+${name}\\b`,
        'm',
      ).exec(code)
      result.set(name, {
        file,
        kind: 'local',
        doc: declared ? docAbove(text, declared.index) : null,
        signature: declared ? text.slice(declared.index, text.indexOf('\n', declared.index)).trim() : '',
      })
    }
  }
  cache.set(file, result)
  return result
}

/** Every public symbol of every entry point with its doc comment (null when missing). */
export function collectPublicApi() {
  return ENTRY_POINTS.map((entry) => {
    const file = join(root, entry.file)
    const symbols = [...exportsOf(file)].map(([name, info]) => ({ name, ...info, file: relative(root, info.file) }))
    symbols.sort((a, b) => a.name.localeCompare(b.name))
    return { ...entry, symbols }
  })
}

function render(entry) {
  const lines = [
    `# ${entry.name}`,
    '',
    `Generated from the JSDoc of \`${entry.file}\` by \`scripts/api-docs.mjs\`.`,
    '',
  ]
  for (const symbol of entry.symbols) {
    lines.push(`## ${symbol.name}`, '', `*${symbol.kind}* — \`${symbol.file}\``, '')
    if (symbol.signature) lines.push('```ts', symbol.signature, '```', '')
    lines.push(symbol.doc ?? '_(undocumented)_', '')
  }
  return lines.join('\n')
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const out = join(root, 'docs/api')
  mkdirSync(out, { recursive: true })
  for (const entry of collectPublicApi()) {
    const name = entry.name.replace('@mailroom/', '').replace('/', '-')
    writeFileSync(join(out, `${name}.md`), render(entry))
    const missing = entry.symbols.filter((s) => !s.doc)
    console.log(
      `${entry.name}: ${entry.symbols.length} symbols${missing.length ? `, ${missing.length} without doc: ${missing.map((s) => s.name).join(', ')}` : ''}`,
    )
  }
}

import { spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { collectPublicApi, ENTRY_POINTS } from '../../../scripts/api-docs.mjs'

// Every `@example` of a public entry point is compiled as a user's module would be: the fenced ```ts blocks are
// written to .mts files inside the repository, next to a node_modules holding the workspace's packages, and
// TypeScript 7's `tsc --noEmit` checks them against the packages' sources (the `source` condition).

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..')

/** The fenced TypeScript blocks of the `@example` sections of a doc comment. */
function exampleBlocks(doc: string): string[] {
  return doc
    .split(/^@example\b/m)
    .slice(1)
    .flatMap((section) => [...(section.split(/^@\w+/m)[0] ?? '').matchAll(/```(?:ts|typescript)\n([\s\S]*?)```/g)])
    .map((match) => match[1] ?? '')
}

interface Example {
  readonly entryPoint: string
  readonly symbol: string
  readonly file: string
  readonly code: string
}

function collectExamples(): Example[] {
  const api = collectPublicApi() as { name: string; symbols: { name: string; file: string; doc: string | null }[] }[]
  const seen = new Set<string>()
  const examples: Example[] = []
  for (const entry of api) {
    for (const symbol of entry.symbols) {
      // A symbol re-exported by another entry point carries the same doc: compile it once.
      if (!symbol.doc || seen.has(`${symbol.file}#${symbol.name}`)) continue
      seen.add(`${symbol.file}#${symbol.name}`)
      exampleBlocks(symbol.doc).forEach((code, index) => {
        const file = `${entry.name.replace('@mailroom/', '')}--${symbol.name}--${index + 1}.mts`
        examples.push({ entryPoint: entry.name, symbol: symbol.name, file, code })
      })
    }
  }
  return examples
}

/** A module that must not compile: proves the check fails when an example stops compiling. */
const BROKEN_CANARY = {
  file: 'canary--broken--1.mts',
  code: "import { createMailroom } from '@mailroom/mailroom'\n\nawait createMailroom({ database: 42 })\n",
}

const workDir = mkdtempSync(join(root, 'packages', 'testing', '.tmp-jsdoc-examples-'))
afterAll(() => rmSync(workDir, { recursive: true, force: true }))

/** Writes the modules beside a node_modules of the workspace's packages and runs `tsc --noEmit` on them. */
function compile(modules: readonly { file: string; code: string }[]): { status: number | null; output: string } {
  const scope = join(workDir, 'node_modules', '@mailroom')
  mkdirSync(scope, { recursive: true })
  for (const area of ['packages', 'apps']) {
    for (const dir of readdirSync(join(root, area))) {
      const manifest = join(root, area, dir, 'package.json')
      let name: string
      try {
        name = JSON.parse(readFileSync(manifest, 'utf8')).name
      } catch {
        continue
      }
      symlinkSync(join(root, area, dir), join(scope, name.replace('@mailroom/', '')), 'dir')
    }
  }
  writeFileSync(
    join(workDir, 'tsconfig.json'),
    JSON.stringify({
      extends: relative(workDir, join(root, 'tsconfig.base.json')),
      compilerOptions: { noEmit: true },
      include: ['*.mts'],
    }),
  )
  // An import makes each block a module of its own, so blocks may reuse names.
  for (const module of modules) writeFileSync(join(workDir, module.file), `${module.code}\nexport {}\n`)
  const tsc = spawnSync(join(root, 'node_modules', '.bin', 'tsc'), ['-p', join(workDir, 'tsconfig.json')], {
    cwd: workDir,
    encoding: 'utf8',
  })
  return { status: tsc.status, output: `${tsc.stdout}${tsc.stderr}` }
}

describe('@example blocks of the public entry points', () => {
  const examples = collectExamples()

  it('covers the places people start: createMailroom, createHttpApp, parseClause, createClient', () => {
    expect(ENTRY_POINTS.map((e: { name: string }) => e.name)).toContain('@mailroom/http-koa')
    const documented = new Set(examples.map((e) => `${e.entryPoint} ${e.symbol}`))
    for (const start of [
      '@mailroom/mailroom createMailroom',
      '@mailroom/http-koa createHttpApp',
      '@mailroom/core parseClause',
      '@mailroom/sdk createClient',
    ])
      expect(documented).toContain(start)
  })

  it('compiles every one of them with tsc, and fails on one that does not compile', { timeout: 300_000 }, () => {
    const { status, output } = compile([...examples, BROKEN_CANARY])
    const errors = output.split('\n').filter((line) => /error TS\d+/.test(line))
    // Only the canary may fail; any other error is an example (named <package>--<export>--<n>.mts) that broke.
    expect(errors.filter((line) => !line.startsWith(BROKEN_CANARY.file))).toEqual([])
    expect(errors.filter((line) => line.startsWith(BROKEN_CANARY.file))).not.toEqual([])
    expect(status).not.toBe(0)
  })
})

import { readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..')
const PACKAGE_DIRS = [
  'packages/core',
  'packages/storage',
  'packages/object-store',
  'packages/directory',
  'packages/documents',
  'packages/mailroom',
  'packages/http-koa',
  'packages/sdk',
  'packages/import-maarch',
  'packages/testing',
  'apps/server',
  'apps/console',
  'examples/embed',
  'bench',
]

/**
 * The rooms and what each may depend on (docs/architecture.md): core <- storage, core <- documents,
 * storage <- object-store, storage + object-store + documents <- mailroom <- server; sdk <- console (built before the server, which serves it); http-koa serves what mailroom builds through core's types and
 * reaches mailroom in its tests only; sdk takes core's types only. Packages under the test fixtures
 * (core, storage, documents, mailroom, http-koa) reach packages/testing by relative path from their tests,
 * never through a dependency. Any other edge fails.
 */
const ALLOWED: Record<string, { runtime: string[]; dev: string[] }> = {
  '@mailroom/core': { runtime: [], dev: [] },
  '@mailroom/storage': { runtime: ['@mailroom/core'], dev: [] },
  '@mailroom/documents': { runtime: ['@mailroom/core'], dev: [] },
  // The S3 document store implements storage's DocumentStore port; it alone carries the AWS SDK.
  '@mailroom/object-store': { runtime: ['@mailroom/core', '@mailroom/storage'], dev: [] },
  // Sign-in through the organisation's directory: the LDAP client, which only the composition root builds.
  '@mailroom/directory': { runtime: ['@mailroom/core'], dev: [] },
  '@mailroom/mailroom': {
    runtime: [
      '@mailroom/core',
      '@mailroom/directory',
      '@mailroom/documents',
      '@mailroom/object-store',
      '@mailroom/storage',
    ],
    dev: [],
  },
  // Its tests reach packages/testing (which serves it through startTestServer) by relative path.
  '@mailroom/http-koa': { runtime: ['@mailroom/core'], dev: ['@mailroom/mailroom'] },
  '@mailroom/sdk': { runtime: ['@mailroom/core'], dev: ['@mailroom/testing'] },
  // The importer writes through storage (repositories, document writer, journal); its tests build a Mailroom.
  '@mailroom/import-maarch': {
    runtime: ['@mailroom/core', '@mailroom/mailroom', '@mailroom/storage'],
    dev: ['@mailroom/http-koa', '@mailroom/mailroom', '@mailroom/testing'],
  },
  '@mailroom/testing': {
    runtime: ['@mailroom/core', '@mailroom/documents', '@mailroom/http-koa', '@mailroom/mailroom', '@mailroom/storage'],
    dev: [],
  },
  '@mailroom/server': {
    runtime: ['@mailroom/core', '@mailroom/http-koa', '@mailroom/import-maarch', '@mailroom/mailroom'],
    // The console is a dev dependency for the build order only: the server serves its built folder.
    dev: ['@mailroom/console', '@mailroom/sdk', '@mailroom/testing'],
  },
  // The web console talks to the server through the SDK only; its browser tests start a test server.
  '@mailroom/console': { runtime: ['@mailroom/sdk'], dev: ['@mailroom/testing'] },
  '@mailroom/example-embed': { runtime: ['@mailroom/core', '@mailroom/mailroom'], dev: ['@mailroom/testing'] },
  '@mailroom/bench': {
    runtime: [
      '@mailroom/core',
      '@mailroom/http-koa',
      '@mailroom/import-maarch',
      '@mailroom/mailroom',
      '@mailroom/storage',
      '@mailroom/testing',
    ],
    dev: [],
  },
}

interface Manifest {
  name: string
  dependencies?: Record<string, string>
  devDependencies?: Record<string, string>
  peerDependencies?: Record<string, string>
}

const manifests = PACKAGE_DIRS.map((dir) => ({
  dir,
  json: JSON.parse(readFileSync(join(root, dir, 'package.json'), 'utf8')) as Manifest,
}))
const workspace = new Set(manifests.map((m) => m.json.name))

function workspaceDeps(m: Manifest, withDev: boolean): string[] {
  const all = { ...m.dependencies, ...m.peerDependencies, ...(withDev ? m.devDependencies : {}) }
  return Object.keys(all).filter((name) => workspace.has(name))
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? sourceFiles(path) : path.endsWith('.ts') ? [path] : []
  })
}

describe('package graph (design card: dependencies point inward)', () => {
  it('has no cycle, counting dev dependencies', () => {
    const edges = new Map(manifests.map((m) => [m.json.name, workspaceDeps(m.json, true)]))
    const state = new Map<string, 'visiting' | 'done'>()
    const cycle: string[] = []
    const visit = (name: string, path: string[]): boolean => {
      if (state.get(name) === 'done') return false
      if (state.get(name) === 'visiting') {
        cycle.push(...path, name)
        return true
      }
      state.set(name, 'visiting')
      for (const next of edges.get(name) ?? []) if (visit(next, [...path, name])) return true
      state.set(name, 'done')
      return false
    }
    for (const name of edges.keys()) visit(name, [])
    expect(cycle).toEqual([])
  })

  it('keeps core free of our other packages, of I/O and of drivers', () => {
    const core = manifests.find((m) => m.json.name === '@mailroom/core')!.json
    expect(Object.keys(core.dependencies ?? {})).toEqual(['zod'])
    const offenders: string[] = []
    for (const file of sourceFiles(join(root, 'packages/core/src')).filter((f) => !f.endsWith('.test.ts'))) {
      for (const match of readFileSync(file, 'utf8').matchAll(/^\s*(?:import|export)[^'"]*from\s+['"]([^'"]+)['"]/gm)) {
        const specifier = match[1]!
        if (!specifier.startsWith('.') && specifier !== 'zod')
          offenders.push(`${file.slice(root.length)}: ${specifier}`)
      }
    }
    expect(offenders).toEqual([])
  })

  it('lists every package of the workspace with its allowed dependencies', () => {
    expect([...workspace].sort()).toEqual(Object.keys(ALLOWED).sort())
  })

  it.each(manifests.map((m) => [m.json.name, m] as const))('%s depends only on the rooms it may import', (name, m) => {
    const runtime = workspaceDeps(m.json, false)
    const dev = Object.keys(m.json.devDependencies ?? {}).filter((dep) => workspace.has(dep))
    expect(runtime.filter((dep) => !ALLOWED[name]!.runtime.includes(dep))).toEqual([])
    expect(dev.filter((dep) => !ALLOWED[name]!.dev.includes(dep))).toEqual([])
  })

  it.each([
    'packages/storage',
    'packages/object-store',
    'packages/directory',
    'packages/documents',
    'packages/mailroom',
    'packages/http-koa',
    'packages/sdk',
    'packages/import-maarch',
    'apps/server',
  ])('%s: production sources import only the packages it declares', (dir) => {
    const m = manifests.find((x) => x.dir === dir)!.json
    const declared = new Set([m.name, ...workspaceDeps(m, false)])
    const offenders: string[] = []
    for (const file of sourceFiles(join(root, dir, 'src')).filter((f) => !f.endsWith('.test.ts'))) {
      // JSDoc lines (` * import … from '@mailroom/mailroom'` in an @example) are what callers write, not imports.
      const code = readFileSync(file, 'utf8').replace(/^\s*\*.*$/gm, '')
      for (const match of code.matchAll(/from\s+['"](@mailroom\/[^/'"]+)/g)) {
        if (!declared.has(match[1]!)) offenders.push(`${file.slice(root.length)}: ${match[1]}`)
      }
    }
    expect(offenders).toEqual([])
  })

  it('lets sdk take types only from core (no runtime code of ours in the browser client)', () => {
    const offenders: string[] = []
    for (const file of sourceFiles(join(root, 'packages/sdk/src')).filter((f) => !f.endsWith('.test.ts'))) {
      for (const match of readFileSync(file, 'utf8').matchAll(
        /^\s*(import|export)\s+(type\s+)?[^'"]*from\s+['"]@mailroom\/core['"]/gm,
      )) {
        if (!match[2]) offenders.push(`${file.slice(root.length)}: ${match[0].trim().slice(0, 60)}`)
      }
    }
    expect(offenders).toEqual([])
  })

  it('imports other packages only through their public entry points', () => {
    const offenders: string[] = []
    for (const dir of [
      'packages/storage/src',
      'packages/documents/src',
      'packages/mailroom/src',
      'packages/http-koa/src',
      'packages/sdk/src',
      'packages/import-maarch/src',
      'apps/server/src',
      'examples/embed/src',
    ]) {
      for (const file of sourceFiles(join(root, dir)).filter((f) => !f.endsWith('.test.ts'))) {
        for (const match of readFileSync(file, 'utf8').matchAll(/from\s+['"]([^'"]+)['"]/g)) {
          const specifier = match[1]!
          if (
            /^@mailroom\/[^/]+\/(src|dist)\//.test(specifier) ||
            /^(\.\.\/)+(core|storage|documents|mailroom|http-koa|sdk|import-maarch|testing)\/src/.test(specifier)
          )
            offenders.push(`${file.slice(root.length)}: ${specifier}`)
        }
      }
    }
    expect(offenders).toEqual([])
  })
})

import { readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..')
const PACKAGE_DIRS = ['packages/core', 'packages/storage', 'packages/http-koa', 'packages/sdk', 'packages/testing', 'apps/server', 'examples/embed', 'bench']

interface Manifest {
  name: string
  dependencies?: Record<string, string>
  devDependencies?: Record<string, string>
  peerDependencies?: Record<string, string>
}

const manifests = PACKAGE_DIRS.map((dir) => ({ dir, json: JSON.parse(readFileSync(join(root, dir, 'package.json'), 'utf8')) as Manifest }))
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
    for (const file of sourceFiles(join(root, 'packages/core/src')).filter((f) => !f.endsWith('.test.ts') && !f.endsWith('-arbitrary.ts'))) {
      for (const match of readFileSync(file, 'utf8').matchAll(/^\s*(?:import|export)[^'"]*from\s+['"]([^'"]+)['"]/gm)) {
        const specifier = match[1]!
        if (!specifier.startsWith('.') && specifier !== 'zod') offenders.push(`${file.slice(root.length)}: ${specifier}`)
      }
    }
    expect(offenders).toEqual([])
  })

  it('points storage, http-koa and sdk inward to core only', () => {
    const deps = (name: string) => workspaceDeps(manifests.find((m) => m.json.name === name)!.json, false)
    expect(deps('@mailroom/storage')).toEqual(['@mailroom/core'])
    expect(deps('@mailroom/http-koa')).toEqual(['@mailroom/core'])
    expect(deps('@mailroom/sdk')).toEqual(['@mailroom/core'])
  })

  it('imports other packages only through their public entry points', () => {
    const offenders: string[] = []
    for (const dir of ['packages/storage/src', 'packages/http-koa/src', 'packages/sdk/src', 'apps/server/src', 'examples/embed/src']) {
      for (const file of sourceFiles(join(root, dir)).filter((f) => !f.endsWith('.test.ts'))) {
        for (const match of readFileSync(file, 'utf8').matchAll(/from\s+['"]([^'"]+)['"]/g)) {
          const specifier = match[1]!
          if (/^@mailroom\/[^/]+\/(src|dist)\//.test(specifier) || /^(\.\.\/)+(core|storage|http-koa|sdk)\/src/.test(specifier)) offenders.push(`${file.slice(root.length)}: ${specifier}`)
        }
      }
    }
    expect(offenders).toEqual([])
  })
})

import { readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..')

function files(dir: string, ending: RegExp): string[] {
  return readdirSync(dir).flatMap((name) => {
    if (name === 'node_modules' || name === 'dist') return []
    const path = join(dir, name)
    return statSync(path).isDirectory() ? files(path, ending) : ending.test(name) ? [path] : []
  })
}

const packageSources = ['packages', 'apps'].flatMap((area) =>
  readdirSync(join(root, area))
    .map((name) => join(root, area, name, 'src'))
    .filter((dir) => statSync(dir, { throwIfNoEntry: false })?.isDirectory()),
)

describe('public surfaces (CONTRIBUTING: a package exports what its users need, by name)', () => {
  it('re-exports nothing wholesale: no `export *` in any package source', () => {
    const offenders = packageSources
      .flatMap((dir) => files(dir, /\.tsx?$/))
      .filter((file) => /^\s*export\s+(type\s+)?\*/m.test(readFileSync(file, 'utf8')))
      .map((file) => file.slice(root.length + 1))
    expect(offenders).toEqual([])
  })

  it('keeps @mailroom/core/internal to our own packages: the example and the user docs never import it', () => {
    const offenders = [
      ...files(join(root, 'examples'), /\.(ts|mjs|js)$/),
      ...files(join(root, 'docs'), /\.md$/),
      ...files(join(root, 'packages'), /^README\.md$/),
    ]
      .filter((file) => /from\s+['"]@mailroom\/core\/internal['"]/.test(readFileSync(file, 'utf8')))
      .map((file) => file.slice(root.length + 1))
    expect(offenders).toEqual([])
  })

  it('publishes the internal subpath with the same conditions as the entry point, marked internal', () => {
    const manifest = JSON.parse(readFileSync(join(root, 'packages/core/package.json'), 'utf8'))
    expect(manifest.exports['./internal']).toEqual({
      source: './src/internal.ts',
      types: './dist/internal.d.ts',
      default: './dist/internal.js',
    })
    expect(manifest.publishConfig.exports['./internal']).toEqual({
      types: './dist/internal.d.ts',
      default: './dist/internal.js',
    })
    expect(readFileSync(join(root, 'packages/core/src/internal.ts'), 'utf8')).toMatch(/Not public API/)
  })
})

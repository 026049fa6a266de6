import { describe, expect, it } from 'vitest'
// The check lives in scripts/ so `npm test` runs it on the packed tarballs without a build of its own.
import { PUBLISHED, tarballProblems } from '../../../scripts/check-packages.mjs'

const manifest = {
  name: '@mailroom/example',
  description: 'd',
  license: 'Apache-2.0',
  repository: { type: 'git', url: 'git+https://example.org/r.git' },
  homepage: 'https://example.org',
  bugs: { url: 'https://example.org/issues' },
  engines: { node: '^22.12 || ^24 || >=26' },
  exports: { '.': { types: './dist/index.d.ts', default: './dist/index.js' } },
  main: './dist/index.js',
  types: './dist/index.d.ts',
  dependencies: { '@mailroom/core': '^0.1.0' },
}
const GOOD: Record<string, string> = {
  'package.json': JSON.stringify(manifest),
  'README.md': '# x\n\nESM only, Node ≥ 22.12.\n',
  LICENSE: 'Apache License',
  NOTICE: 'Mailroom',
  'dist/index.js': "// src/index.ts\nexport { a } from '@mailroom/core'\n",
  'dist/index.d.ts': 'export {}\n',
}
const problems = (files: Record<string, string>) => tarballProblems(Object.keys(files), (f) => files[f]!)
const withManifest = (changes: object) => ({ ...GOOD, 'package.json': JSON.stringify({ ...manifest, ...changes }) })

describe('check-packages: what a published tarball may hold', () => {
  it('checks the nine published packages', () => {
    expect(PUBLISHED).toEqual([
      'packages/core',
      'packages/storage',
      'packages/object-store',
      'packages/directory',
      'packages/documents',
      'packages/mailroom',
      'packages/http-koa',
      'packages/sdk',
      'apps/server',
    ])
  })

  it('accepts dist JS and declarations, README, LICENSE, NOTICE', () => {
    expect(problems(GOOD)).toEqual([])
  })

  it('refuses sources, source maps and other files', () => {
    expect(problems({ ...GOOD, 'src/index.ts': '', 'dist/index.js.map': '{}' })).toEqual([
      'ships src/index.ts',
      'ships dist/index.js.map',
    ])
  })

  it('refuses a JS file that inlines another package or a dependency', () => {
    const inlined = { ...GOOD, 'dist/testing/index.js': '// src/index.ts\n// ../storage/src/index.ts\nvar x = 1\n' }
    expect(problems(inlined)).toEqual(['dist/testing/index.js inlines another package: // ../storage/src/index.ts'])
    const dependency = {
      ...GOOD,
      'dist/index.js': '// ../../node_modules/.pnpm/kysely@0.28.18/node_modules/kysely/dist/esm/index.js\n',
    }
    expect(problems(dependency)).toHaveLength(1)
  })

  it('refuses a "source" condition, exports to unshipped files and workspace: ranges', () => {
    expect(
      problems(
        withManifest({
          exports: { '.': { source: './src/index.ts', types: './dist/index.d.ts', default: './dist/index.js' } },
        }),
      ),
    ).toEqual([
      'exports...source: a "source" condition in a published package',
      'exports...source points at ./src/index.ts, which is not shipped',
    ])
    expect(problems(withManifest({ exports: { './testing': './dist/testing/index.js' } }))).toEqual([
      'exports../testing points at ./dist/testing/index.js, which is not shipped',
    ])
    expect(problems(withManifest({ dependencies: { '@mailroom/core': 'workspace:^' } }))).toEqual([
      'dependencies.@mailroom/core is workspace:^',
    ])
  })

  it('asks for the metadata, a README, LICENSE and the ESM-only line', () => {
    const { README: _r, ...rest } = { README: 1, ...GOOD }
    const bare = { ...rest, 'package.json': JSON.stringify({ ...manifest, repository: undefined, bugs: undefined }) }
    delete (bare as Record<string, string>)['README.md']
    delete (bare as Record<string, string>).LICENSE
    expect(problems(bare)).toEqual([
      'lacks README.md',
      'lacks LICENSE',
      'package.json lacks repository',
      'package.json lacks bugs',
      'README.md does not say "ESM only, Node ≥ 22.12"',
    ])
  })
})

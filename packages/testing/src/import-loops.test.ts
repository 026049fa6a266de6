import { existsSync, readdirSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { findImportCycles } from './module-graph/import-graph.js'

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..')

/** Every workspace package (pnpm-workspace.yaml: packages/*, apps/*, examples/*, bench), by its folder. */
const packageDirs = [
  ...['packages', 'apps', 'examples'].flatMap((group) =>
    existsSync(join(root, group))
      ? readdirSync(join(root, group))
          .sort()
          .map((name) => `${group}/${name}`)
      : [],
  ),
  'bench',
].filter((dir) => existsSync(join(root, dir, 'package.json')))

/** A package's source: its src folder, or the package's own folder when it has none (bench). */
const sourceOf = (dir: string) => (existsSync(join(root, dir, 'src')) ? `${dir}/src` : dir)

describe('import loops', () => {
  it('finds every workspace package', () => {
    expect(packageDirs).toEqual(expect.arrayContaining(['packages/core', 'packages/storage', 'apps/server', 'bench']))
  })

  it.each(packageDirs.map(sourceOf))('%s: no file imports itself back through others', (source) => {
    expect(findImportCycles(join(root, source))).toEqual([])
  })
})

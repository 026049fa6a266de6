import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import suite, { SUITE_PACKAGES } from '../../../vitest.suite.config.ts'

const root = join(dirname(fileURLToPath(import.meta.url)), '../../..')

/** The workspace's folders (pnpm-workspace.yaml: `dir/*` globs and plain folders) that have a vitest configuration. */
function foldersWithTests(): string[] {
  const workspace = readFileSync(join(root, 'pnpm-workspace.yaml'), 'utf8')
  const globs = [...workspace.matchAll(/^ {2}- (\S+)$/gm)].map((match) => match[1] as string)
  const folders = globs.flatMap((glob) =>
    glob.endsWith('/*')
      ? readdirSync(join(root, glob.slice(0, -2)), { withFileTypes: true })
          .filter((entry) => entry.isDirectory())
          .map((entry) => `${glob.slice(0, -2)}/${entry.name}`)
      : [glob],
  )
  return folders.filter((folder) => existsSync(join(root, folder, 'vitest.config.ts'))).sort()
}

describe('the whole suite as one vitest run (vitest.suite.config.ts)', () => {
  it('gathers every workspace package that has tests, so npm test leaves none out', () => {
    expect(foldersWithTests().length).toBeGreaterThan(10)
    expect(Object.keys(SUITE_PACKAGES).sort()).toEqual(foldersWithTests())
  })

  it("keeps each package's projects, named after it, rooted in its folder", () => {
    const projects = (suite as { test: { projects: { root: string; test: { name: string } }[] } }).test.projects
    const names = projects.map((project) => project.test.name)
    expect(names).toContain('@mailroom/storage:pglite')
    expect(names).toContain('@mailroom/storage:postgres')
    expect(names).toContain('@mailroom/core')
    expect(new Set(names).size).toBe(names.length)
    const storage = projects.find((project) => project.test.name === '@mailroom/storage:postgres')
    expect(storage?.root).toBe(join(root, 'packages/storage'))
  })
})

import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { IMAGE_TEST_FILE, imageTestWanted } from '../../../scripts/image-test.mjs'
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

  it('leaves the container image test to its own run beside the suite, in CI or when asked', () => {
    const projects = (suite as { test: { projects: { root: string; test: { name: string; exclude?: string[] } }[] } })
      .test.projects
    const server = projects.filter((project) => project.test.name.startsWith('@mailroom/server:'))
    expect(server.length).toBeGreaterThanOrEqual(2)
    for (const project of server) {
      expect(join(project.root, project.test.exclude?.at(-1) ?? '')).toBe(join(root, IMAGE_TEST_FILE))
      expect(project.test.exclude).toContain('**/node_modules/**')
    }
    expect(existsSync(join(root, IMAGE_TEST_FILE))).toBe(true)
    const storage = projects.find((project) => project.test.name === '@mailroom/storage:pglite')
    expect(storage?.test.exclude ?? []).not.toContain('test/container-image.test.ts')

    expect(
      [{ CI: 'true' }, { CI: '1' }, { MAILROOM_IMAGE_TEST: '1' }, { CI: 'true', MAILROOM_IMAGE_TEST: '1' }].map((env) =>
        imageTestWanted(env),
      ),
    ).toEqual([true, true, true, true])
    expect(
      [{}, { CI: 'false' }, { CI: 'true', MAILROOM_IMAGE_TEST: '0' }, { MAILROOM_IMAGE_TEST: 'yes' }].map((env) =>
        imageTestWanted(env),
      ),
    ).toEqual([false, false, false, false])
  })
})

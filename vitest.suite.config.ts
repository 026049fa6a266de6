import { readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { configDefaults, defineConfig } from 'vitest/config'
import consoleApp from './apps/console/vitest.config.ts'
import server from './apps/server/vitest.config.ts'
import bench from './bench/vitest.config.ts'
import embed from './examples/embed/vitest.config.ts'
import core from './packages/core/vitest.config.ts'
import directory from './packages/directory/vitest.config.ts'
import documents from './packages/documents/vitest.config.ts'
import httpKoa from './packages/http-koa/vitest.config.ts'
import importMaarch from './packages/import-maarch/vitest.config.ts'
import mailroom from './packages/mailroom/vitest.config.ts'
import objectStore from './packages/object-store/vitest.config.ts'
import sdk from './packages/sdk/vitest.config.ts'
import storage from './packages/storage/vitest.config.ts'
import testing from './packages/testing/vitest.config.ts'
import { IMAGE_TEST_FILE } from './scripts/image-test.mjs'

/**
 * The whole suite as one vitest run (`npm test`, scripts/bootstrap.mjs): every package's projects (PGlite,
 * PostgreSQL, s3) side by side in one pool of two workers. Run package after package, each paid vitest's start
 * and ended on its slowest file with one core idle; in one run the files of every package fill both workers to
 * the end. Each package's own `vitest.config.ts` stays what `pnpm --filter <pkg> test` and watch mode use: this
 * file only gathers them (vitest does not expand the projects of a project), and a test checks it names every
 * package that has one (packages/testing/src/suite-config.test.ts).
 */
export const SUITE_PACKAGES = {
  'apps/console': consoleApp,
  'apps/server': server,
  bench,
  'examples/embed': embed,
  'packages/core': core,
  'packages/directory': directory,
  'packages/documents': documents,
  'packages/http-koa': httpKoa,
  'packages/import-maarch': importMaarch,
  'packages/mailroom': mailroom,
  'packages/object-store': objectStore,
  'packages/sdk': sdk,
  'packages/storage': storage,
  'packages/testing': testing,
} as const

const root = dirname(fileURLToPath(import.meta.url))

/**
 * Files `npm test` runs in a vitest run of their own beside this one (scripts/image-test.mjs): the container
 * image test waits minutes on podman and would hold one of the two workers all that time.
 */
export const RUN_BESIDE_THE_SUITE = [IMAGE_TEST_FILE]

interface PackageTest {
  readonly projects?: readonly { readonly test: { readonly name: string } & Record<string, unknown> }[]
  readonly [option: string]: unknown
}

/** A package's projects as projects of the suite: its folder as root, named `<package>` or `<package>:<project>`. */
function projectsOf(folder: string, config: object) {
  const name = JSON.parse(readFileSync(join(root, folder, 'package.json'), 'utf8')).name as string
  // Reporters and the number of workers are the run's, not a project's. Each package's projects are inline
  // objects (vitest.shared.ts), never paths.
  const {
    projects,
    reporters: _reporters,
    maxWorkers: _maxWorkers,
    ...shared
  } = (config as { readonly test?: PackageTest }).test ?? {}
  const beside = RUN_BESIDE_THE_SUITE.filter((file) => file.startsWith(`${folder}/`)).map((file) =>
    file.slice(folder.length + 1),
  )
  return (projects ?? [{ test: { name: '' } }]).map((project) => {
    const test: Record<string, unknown> = {
      ...shared,
      ...project.test,
      name: projects ? `${name}:${project.test.name}` : name,
    }
    const excluded = (test.exclude as readonly string[] | undefined) ?? configDefaults.exclude
    const exclude = beside.length > 0 ? { exclude: [...excluded, ...beside] } : {}
    return { ...config, root: join(root, folder), test: { ...test, ...exclude } }
  })
}

const reportDir = process.env.MAILROOM_TEST_REPORT_DIR

export default defineConfig({
  test: {
    projects: Object.entries(SUITE_PACKAGES).flatMap(([folder, config]) => projectsOf(folder, config)) as never,
    maxWorkers: 2,
    // As each package's (vitest.shared.ts): one transform per source file and configuration, kept across runs.
    experimental: { fsModuleCache: true },
    reporters: reportDir ? ['default', ['json', { outputFile: join(reportDir, 'suite.json') }]] : ['default'],
  },
})

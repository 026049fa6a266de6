import { configDefaults, defineConfig, type ViteUserConfig } from 'vitest/config'

/**
 * Conditions that make workspace packages resolve to their TypeScript sources (no build before tests).
 * Vitest also hands them to Node (`--conditions`), so they must suit Node: no `module`, which picks the
 * bundler-only builds of packages such as the AWS SDK (extensionless imports Node cannot load).
 */
const conditions = ['source', 'node', 'development|production']

export type DatabaseMatrix = 'none' | 'both'

/**
 * Vitest configuration shared by every package.
 * `databases: 'both'` runs the package's tests twice, once on embedded PGlite and once on PostgreSQL;
 * the test helpers read MAILROOM_TEST_DB to pick the driver. `include` replaces the default test file globs.
 * `databaseFree` lists test files that open no database: they run once, in the PGlite project, since a
 * second run on PostgreSQL would test the same code the same way (CI time).
 */
export function mailroomVitestConfig(
  options: { databases?: DatabaseMatrix; testTimeout?: number; include?: string[]; databaseFree?: string[] } = {},
): ViteUserConfig {
  const base = {
    include: options.include ?? ['src/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: options.testTimeout ?? 30_000,
    hookTimeout: 60_000,
    pool: 'forks' as const,
    // Vitest's default on a 2-core machine is one worker: test files then wait on each other's I/O (PostgreSQL,
    // LibreOffice, password hashing in libuv's pool). Two keep both cores busy.
    maxWorkers: 2,
  }
  const reportDir = process.env.MAILROOM_TEST_REPORT_DIR
  const reporters = reportDir ? ['default', ['json', { outputFile: `${reportDir}/${encodeURIComponent(process.cwd())}.json` }]] : ['default']
  return defineConfig({
    resolve: { conditions },
    ssr: { resolve: { conditions } },
    test:
      options.databases === 'both'
        ? {
            ...base,
            reporters: reporters as never,
            projects: [
              { extends: true, test: { name: 'pglite', env: { MAILROOM_TEST_DB: 'pglite' } } },
              {
                extends: true,
                test: { name: 'postgres', env: { MAILROOM_TEST_DB: 'postgres' }, exclude: [...configDefaults.exclude, ...(options.databaseFree ?? [])] },
              },
            ],
          }
        : { ...base, reporters: reporters as never },
  })
}

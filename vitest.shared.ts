import { spawnSync } from 'node:child_process'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { configDefaults, defineConfig, type ViteUserConfig } from 'vitest/config'

/**
 * Conditions that make workspace packages resolve to their TypeScript sources (no build before tests).
 * Vitest also hands them to Node (`--conditions`), so they must suit Node: no `module`, which picks the
 * bundler-only builds of packages such as the AWS SDK (extensionless imports Node cannot load).
 */
const conditions = ['source', 'node', 'development|production']

export type DatabaseMatrix = 'none' | 'both'

const CEPH_SCRIPT = join(dirname(fileURLToPath(import.meta.url)), 'scripts', 'ceph-test-cluster.sh')

/** Makes the run's folder of demo templates: each test file's Mailroom starts from a copy, not a fresh migration. */
const DEMO_TEMPLATES_SETUP = join(
  dirname(fileURLToPath(import.meta.url)),
  'packages/testing/src/databases/demo-templates-setup.ts',
)

/**
 * How the s3 project reaches the Ceph test gateway: the environment's settings when `npm test` passed them
 * (scripts/bootstrap.mjs), else those of a cluster the script left running; null when none answers.
 */
function cephGatewayEnv(): Record<string, string> | null {
  if (process.env.MAILROOM_SKIP_CEPH) return null
  if (process.env.MAILROOM_S3_ENDPOINT) return {}
  // Vitest loads this configuration once more per project: ask the script, and say the project is left out, once.
  const memo = globalThis as { mailroomCephGatewayEnv?: Record<string, string> | null }
  if (memo.mailroomCephGatewayEnv !== undefined) return memo.mailroomCephGatewayEnv
  const found = spawnSync('bash', [CEPH_SCRIPT, 'env'], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
    timeout: 10_000,
  })
  memo.mailroomCephGatewayEnv =
    found.status === 0
      ? Object.fromEntries(
          found.stdout
            .trim()
            .split('\n')
            .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
        )
      : null
  if (memo.mailroomCephGatewayEnv === null) {
    process.stderr.write(
      'the s3 test project is left out: no Ceph gateway (start one with `bash scripts/ceph-test-cluster.sh start`)\n',
    )
  }
  return memo.mailroomCephGatewayEnv
}

/**
 * Vitest configuration shared by every package.
 * `databases: 'both'` runs the package's tests twice, once on embedded PGlite and once on PostgreSQL;
 * the test helpers read MAILROOM_TEST_DB to pick the driver. `include` replaces the default test file globs.
 * `databaseFree` lists test files that open no database: they run once, in the PGlite project, since a
 * second run on PostgreSQL would test the same code the same way (CI time). `postgresOnly` lists files whose
 * behaviour on PGlite another package's tests already cover: they run in the PostgreSQL project only.
 * `alsoOnPglite`, where given, inverts that: only these files (and `databaseFree`) run on PGlite, every other one
 * on PostgreSQL only — for a package whose database work is another package's, tested there on both (http-koa's
 * routes call storage's services: what differs per database is storage's), keeping on PGlite the files that
 * drive every route or the core paths end to end on the embedded default. `alsoOnPostgres` is its mirror: every
 * file runs on PGlite and only these on PostgreSQL too — for a client package (the SDK) whose end-to-end paths
 * should be seen on each database without running the whole package twice.
 * `objectStore` lists test files that store documents: a third project, `s3`, runs them again on PostgreSQL
 * with MAILROOM_TEST_STORE=s3, so createTestMailroom keeps their documents in a fresh bucket of the Ceph test
 * gateway (several servers sharing one database and one bucket is the configuration object storage is for).
 * Where no gateway answers the project is left out, saying so once, and the other two run as before.
 */
export function mailroomVitestConfig(
  options: {
    databases?: DatabaseMatrix
    testTimeout?: number
    include?: string[]
    databaseFree?: string[]
    objectStore?: string[]
    postgresOnly?: string[]
    alsoOnPglite?: string[]
    alsoOnPostgres?: string[]
  } = {},
): ViteUserConfig {
  if (options.alsoOnPglite && options.alsoOnPostgres)
    throw new Error('alsoOnPglite and alsoOnPostgres each name the files of one side: give one of them')
  const include = options.include ?? ['src/**/*.test.ts', 'test/**/*.test.ts']
  const base = {
    // A test's timeout guards against hanging only: sized for a 2-core machine busy with another full test run
    // (load 5 and more), where a test that takes 5 s idle can take 60. How fast is the benchmarks' business.
    testTimeout: options.testTimeout ?? 120_000,
    hookTimeout: 180_000,
    pool: 'forks' as const,
    // Vitest's default on a 2-core machine is one worker: test files then wait on each other's I/O (PostgreSQL,
    // LibreOffice, password hashing in libuv's pool). Two keep both cores busy.
    maxWorkers: 2,
    // A worker runs its test files one after another in one module registry: loading Mailroom's module graph
    // (kysely, PGlite, Koa, the AWS SDK…) again for every file was a third of the suite's CPU time. So a test
    // file restores whatever global state it changes (process.env, listeners, spies) when it ends.
    isolate: false,
    // Vite's transform of each source file, kept on disk (node_modules/.experimental-vitest-cache) and keyed by its
    // content and configuration: a package's PGlite, PostgreSQL and s3 projects transformed the same files each,
    // and a rerun transformed them all again.
    experimental: { fsModuleCache: true },
  }
  const reportDir = process.env.MAILROOM_TEST_REPORT_DIR
  const objectStore = options.databases === 'both' ? (options.objectStore ?? []) : []
  const gatewayEnv = objectStore.length > 0 ? cephGatewayEnv() : null
  const reporters = reportDir
    ? ['default', ['json', { outputFile: `${reportDir}/${encodeURIComponent(process.cwd())}.json` }]]
    : ['default']
  return defineConfig({
    resolve: { conditions },
    ssr: { resolve: { conditions } },
    test:
      options.databases === 'both'
        ? {
            ...base,
            globalSetup: [DEMO_TEMPLATES_SETUP],
            reporters: reporters as never,
            // Each project names its files: a project that extends the root concatenates its include to the root's.
            projects: [
              {
                extends: true,
                test: {
                  name: 'pglite',
                  include: options.alsoOnPglite ? [...(options.databaseFree ?? []), ...options.alsoOnPglite] : include,
                  env: { MAILROOM_TEST_DB: 'pglite' },
                  exclude: [...configDefaults.exclude, ...(options.postgresOnly ?? [])],
                },
              },
              {
                extends: true,
                test: {
                  name: 'postgres',
                  include: options.alsoOnPostgres
                    ? [...options.alsoOnPostgres, ...(options.postgresOnly ?? [])]
                    : include,
                  env: { MAILROOM_TEST_DB: 'postgres' },
                  exclude: [...configDefaults.exclude, ...(options.databaseFree ?? [])],
                },
              },
              ...(gatewayEnv
                ? [
                    {
                      extends: true as const,
                      test: {
                        name: 's3',
                        include: objectStore,
                        env: { ...gatewayEnv, MAILROOM_TEST_DB: 'postgres', MAILROOM_TEST_STORE: 's3' },
                      },
                    },
                  ]
                : []),
            ],
          }
        : { ...base, include, reporters: reporters as never },
  })
}

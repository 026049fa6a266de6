import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { copyDemoDatabaseTo, createTestDatabase, type TestDatabase, testDatabaseKind } from '@mailroom/testing'
import { loadConfig } from '../src/config.js'

// A `mailroom` process (or `startServer`) on an empty database migrates it and hashes the demo's passwords at the
// production cost: seconds of CPU per start, in every test that starts one. These helpers give the tests that are
// about something else a copy of the run's migrated demo database instead; the tests of the migration and the
// demo load themselves (src/cli.test.ts, src/serve.test.ts, test/replicas-start.test.ts) start from an empty one.

/** Where `mailroom` keeps the embedded database of a data directory (its configuration's rule). */
function embeddedDatabaseDir(dataDir: string): string {
  const { database } = loadConfig({ MAILROOM_DATA_DIR: dataDir }, { requireSecret: false })
  if (database.kind !== 'pglite') throw new Error('without DATABASE_URL the database is the embedded one')
  return database.dataDir
}

/** Copies the run's demo database into the data directory's embedded database; no run's copy is a setup error. */
async function copyEmbeddedDemo(dataDir: string): Promise<void> {
  if (!(await copyDemoDatabaseTo(embeddedDatabaseDir(dataDir))))
    throw new Error("no demo database to copy: run the tests through the package's vitest config (its global setup)")
}

/** A new data directory whose embedded database is a copy of the run's demo database. */
export async function embeddedDemoDataDir(prefix: string): Promise<string> {
  const dataDir = await mkdtemp(join(tmpdir(), prefix))
  try {
    await copyEmbeddedDemo(dataDir)
  } catch (error) {
    await rm(dataDir, { recursive: true, force: true })
    throw error
  }
  return dataDir
}

/**
 * The test project's database with the demo copied in, for `mailroom` run with MAILROOM_DATA_DIR=`dataDir` (and
 * DATABASE_URL set to the database's URL on PostgreSQL): a copy of the run's PostgreSQL template, or on PGlite the
 * data directory's embedded database.
 */
export async function createDemoDatabase(dataDir: string): Promise<TestDatabase> {
  const kind = testDatabaseKind()
  const database = await createTestDatabase(kind, { withDemo: kind === 'postgres' })
  if (kind === 'pglite') await copyEmbeddedDemo(dataDir)
  return database
}

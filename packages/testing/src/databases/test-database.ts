import { randomBytes } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type DatabaseTarget, type Mailroom, type MailroomOptions, createMailroom, ScryptPasswordHasher } from '@mailroom/mailroom'
import pg from 'pg'

/** Which database the current test project runs on (vitest projects set MAILROOM_TEST_DB). */
export type TestDatabaseKind = 'pglite' | 'postgres'

/** The database kind of the running test project (PGlite unless MAILROOM_TEST_DB=postgres). */
export function testDatabaseKind(): TestDatabaseKind {
  return process.env.MAILROOM_TEST_DB === 'postgres' ? 'postgres' : 'pglite'
}

/** Admin connection of the PostgreSQL server the tests create their databases on. */
export function postgresAdminUrl(): string {
  return process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test'
}

/** A fresh, empty database for one test file, and how to throw it away. */
export interface TestDatabase {
  readonly target: DatabaseTarget
  readonly kind: TestDatabaseKind
  /** For PostgreSQL: the URL of the created database. */
  readonly url?: string
  drop(): Promise<void>
}

/** Creates an isolated database: an in-memory PGlite, or a new database on the PostgreSQL server. */
export async function createTestDatabase(kind: TestDatabaseKind = testDatabaseKind()): Promise<TestDatabase> {
  if (kind === 'pglite') return { kind, target: { kind: 'pglite', dataDir: 'memory://' }, drop: async () => {} }
  const admin = postgresAdminUrl()
  const name = `mailroom_test_${process.pid}_${randomBytes(4).toString('hex')}`
  const client = new pg.Client({ connectionString: admin })
  await client.connect()
  try {
    await client.query(`create database ${name}`)
  } finally {
    await client.end()
  }
  const url = new URL(admin)
  url.pathname = `/${name}`
  return {
    kind,
    url: url.toString(),
    target: { kind: 'postgres', url: url.toString(), poolSize: 8 },
    drop: async () => {
      const dropper = new pg.Client({ connectionString: admin })
      await dropper.connect()
      try {
        await dropper.query(`drop database if exists ${name} with (force)`)
      } finally {
        await dropper.end()
      }
    },
  }
}

/** A Mailroom on a fresh database and a temporary docserver folder, with the demo dataset by default. */
export interface TestMailroom {
  readonly mailroom: Mailroom
  readonly database: TestDatabase
  readonly docserverDir: string
  readonly secret: string
  cleanup(): Promise<void>
}

/** The signing secret every test server uses. */
export const TEST_SECRET = 'test-secret-0123456789-abcdefghij'

/** A cheap scrypt cost for tests only (production keeps the slow default). */
export const TEST_PASSWORD_HASHER = new ScryptPasswordHasher({ N: 1024 })

/**
 * A Mailroom on a fresh database of the current test project and a temporary docserver folder, with the
 * demo dataset and a cheap password hash; `cleanup()` drops both.
 */
export async function createTestMailroom(options: Partial<Omit<MailroomOptions, 'database' | 'docserverDir'>> = {}): Promise<TestMailroom> {
  const database = await createTestDatabase()
  const docserverDir = await mkdtemp(join(tmpdir(), 'mailroom-docservers-'))
  const mailroom = await createMailroom({
    database: database.target,
    docserverDir,
    secret: TEST_SECRET,
    demo: true,
    passwordHasher: TEST_PASSWORD_HASHER,
    ...options,
  })
  return {
    mailroom,
    database,
    docserverDir,
    secret: TEST_SECRET,
    async cleanup() {
      await mailroom.close()
      await database.drop()
      await rm(docserverDir, { recursive: true, force: true })
    },
  }
}

import { randomBytes } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  createMailroom,
  type DatabaseTarget,
  type DocumentStore,
  type DocumentStoreChoice,
  type Mailroom,
  type MailroomOptions,
  ScryptPasswordHasher,
} from '@mailroom/mailroom'
import pg from 'pg'
import { storedKeys } from '../fixtures/insert-test-record.js'
import { cephGateway, testBucketUrl } from '../object-store/ceph-gateway.js'
import { postgresAdminUrl, type TemplateContents } from './demo-template-names.js'
import { pgliteTemplate, postgresTemplate, unpackPgliteDemoTemplate } from './demo-templates.js'

/** Which database the current test project runs on (vitest projects set MAILROOM_TEST_DB). */
export type TestDatabaseKind = 'pglite' | 'postgres'

/** The database kind of the running test project (PGlite unless MAILROOM_TEST_DB=postgres). */
export function testDatabaseKind(): TestDatabaseKind {
  return process.env.MAILROOM_TEST_DB === 'postgres' ? 'postgres' : 'pglite'
}

/** Where the current test project keeps documents (vitest's `s3` project sets MAILROOM_TEST_STORE=s3). */
export type TestStoreKind = 'folder' | 's3'

/** The document store kind of the running test project (a temporary folder unless MAILROOM_TEST_STORE=s3). */
export function testStoreKind(): TestStoreKind {
  return process.env.MAILROOM_TEST_STORE === 's3' ? 's3' : 'folder'
}

export { postgresAdminUrl }

/** A fresh, empty database for one test file, and how to throw it away. */
export interface TestDatabase {
  readonly target: DatabaseTarget
  readonly kind: TestDatabaseKind
  /** For PostgreSQL: the URL of the created database. */
  readonly url?: string
  drop(): Promise<void>
}

/**
 * Creates an isolated database: an in-memory PGlite, or a new database on the PostgreSQL server; empty (not even
 * migrated), or a copy of the run's template where the run has one (demo-templates.ts): `withDemo` the migrated
 * demo database, `migrated` a migrated database with nothing in it.
 */
export async function createTestDatabase(
  kind: TestDatabaseKind = testDatabaseKind(),
  options: { withDemo?: boolean; migrated?: boolean } = {},
): Promise<TestDatabase> {
  const contents: TemplateContents | null = options.withDemo ? 'demo' : options.migrated ? 'empty' : null
  if (kind === 'pglite') {
    const template = contents ? await pgliteTemplate(DEMO_TEMPLATE_INPUTS, contents) : null
    const target = { kind, dataDir: 'memory://', ...(template ? { loadDataDir: template } : {}) } as const
    return { kind, target, drop: async () => {} }
  }
  const admin = postgresAdminUrl()
  const template = contents ? await postgresTemplate(admin, DEMO_TEMPLATE_INPUTS, contents) : null
  const name = `mailroom_test_${process.pid}_${randomBytes(4).toString('hex')}`
  const client = new pg.Client({ connectionString: admin })
  await client.connect()
  try {
    await client.query(template ? `create database ${name} template ${template}` : `create database ${name}`)
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

/** A Mailroom on a fresh database and a fresh document store, with the demo dataset by default. */
export interface TestMailroom {
  readonly mailroom: Mailroom
  readonly database: TestDatabase
  /** Where the documents are: a temporary folder, or a fresh bucket of the Ceph test gateway. */
  readonly store: TestStoreKind
  /** The options that open this store again (a second Mailroom on the same documents). */
  readonly storeOptions: DocumentStoreChoice
  /** The mailroom's document store: tests read, replace and remove stored files through it, on either store. */
  readonly documents: DocumentStore
  /** The docserver folder; in the s3 project reading it throws, so a test peeking at the disk fails loudly. */
  readonly docserverDir: string
  readonly secret: string
  cleanup(): Promise<void>
}

/** The signing secret every test server uses. */
export const TEST_SECRET = 'test-secret-0123456789-abcdefghij'

/** A cheap scrypt cost for tests only (production keeps the slow default). */
export const TEST_PASSWORD_HASHER = new ScryptPasswordHasher({ N: 1024 })

const DEMO_TEMPLATE_INPUTS = { hasher: TEST_PASSWORD_HASHER, secret: TEST_SECRET }

/**
 * Makes `pgliteDir` (absent or empty) the embedded database of a `mailroom` process a test starts, copied from the
 * run's migrated demo database, where the test is not about migrating or loading the demo; false outside a run
 * (nothing written: the caller says so; a process left to start on the empty folder would migrate it, and load
 * the demo only where asked to). The demo users' passwords carry the tests'
 * cheap hash cost, which the process verifies as any other and raises at a sign-in (`needsRehash`).
 */
export function copyDemoDatabaseTo(pgliteDir: string): Promise<boolean> {
  return unpackPgliteDemoTemplate(DEMO_TEMPLATE_INPUTS, pgliteDir)
}

/** A fresh document store of the current project, and how to empty it. */
async function createTestStore(kind: TestStoreKind): Promise<{ options: DocumentStoreChoice; folder: string | null }> {
  if (kind === 'folder') {
    const folder = await mkdtemp(join(tmpdir(), 'mailroom-docservers-'))
    return { options: { docserverDir: folder }, folder }
  }
  const gateway = cephGateway()
  // vitest.shared.ts leaves the s3 project out where no gateway answers: reaching here without one is a setup error.
  if (!gateway)
    throw new Error('MAILROOM_TEST_STORE=s3 needs the Ceph test gateway (bash scripts/ceph-test-cluster.sh start)')
  return { options: { docserverUrl: testBucketUrl(), s3: gateway }, folder: null }
}

/** Removes every object of a test bucket (the memstore OSD keeps them in memory for the cluster's life). */
async function emptyStore(store: DocumentStore): Promise<void> {
  const keys = await storedKeys(store)
  const removing = new Set<Promise<void>>()
  for (const key of keys) {
    const removal = store.remove(key).finally(() => removing.delete(removal))
    removing.add(removal)
    if (removing.size >= 16) await Promise.race(removing)
  }
  await Promise.all(removing)
}

/**
 * A Mailroom on a fresh database of the current test project and a fresh document store of its store kind
 * (a temporary folder, or a new bucket on the Ceph gateway in the s3 project), with the demo dataset and a
 * cheap password hash; `cleanup()` drops the database and empties the store. `postgresPoolSize` sets the pool
 * on PostgreSQL: 1 makes every statement run in one session, whose state (prepared statements) a test then reads.
 */
export async function createTestMailroom(
  options: Partial<Omit<MailroomOptions, 'database' | 'docserverDir' | 'docserverUrl' | 's3' | 'documentStore'>> = {},
  setup: { readonly postgresPoolSize?: number } = {},
): Promise<TestMailroom> {
  // A copy of the run's demo database serves every test Mailroom that starts the default way, and a copy of its
  // migrated empty one those that ask for no demo; one that sets `migrate`, or asks for the demo under another
  // password hash, starts from an empty database.
  const migrates = !('migrate' in options)
  const database = await createTestDatabase(testDatabaseKind(), {
    withDemo: migrates && !('demo' in options || 'passwordHasher' in options),
    migrated: migrates && options.demo === false,
  })
  const store = testStoreKind()
  const { options: storeOptions, folder } = await createTestStore(store)
  const mailroom = await createMailroom({
    database:
      database.target.kind === 'postgres' && setup.postgresPoolSize !== undefined
        ? { ...database.target, poolSize: setup.postgresPoolSize }
        : database.target,
    ...storeOptions,
    secret: TEST_SECRET,
    demo: true,
    passwordHasher: TEST_PASSWORD_HASHER,
    // No background extraction unless a test asks for it: the others create records, not search their words.
    fulltext: { workers: 0 },
    ...options,
  })
  return {
    mailroom,
    database,
    store,
    storeOptions,
    documents: mailroom.documentStore,
    get docserverDir(): string {
      if (folder === null)
        throw new Error('this test reads the docserver folder, which the s3 project has not: go through `documents`')
      return folder
    },
    secret: TEST_SECRET,
    async cleanup() {
      if (folder === null) await emptyStore(mailroom.documentStore)
      await mailroom.close()
      await database.drop()
      if (folder !== null) await rm(folder, { recursive: true, force: true })
    },
  }
}

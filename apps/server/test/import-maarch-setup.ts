import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createTestDatabase, type TestDatabase } from '@mailroom/testing'
import { createGeneratedSource, type GeneratedSource } from '../../../packages/import-maarch/test/generated-source.js'
import { type CliRun, captureCli } from './capture-cli.js'

/** The secret of the Mailroom an import test serves or verifies the journal of. */
export const IMPORT_TEST_SECRET = 'import-test-secret-0123456789abcdef0123456789'

/**
 * What a test file of `mailroom import maarch` imports from and into: a generated Maarch 20.10 installation, a
 * test database and a data folder, all its own. The file calls `create` in its beforeAll and `drop` in its
 * afterAll; one instance per file, since a worker runs several test files in one module registry.
 */
export class ImportMaarchSetup {
  database!: TestDatabase
  dataDir!: string
  source!: GeneratedSource

  constructor(private readonly options: { readonly records: number; readonly dataDirPrefix: string }) {}

  async create(): Promise<void> {
    this.database = await createTestDatabase()
    this.dataDir = await mkdtemp(join(tmpdir(), this.options.dataDirPrefix))
    this.source = await createGeneratedSource({ records: this.options.records })
  }

  async drop(): Promise<void> {
    await this.database?.drop()
    await rm(this.dataDir, { recursive: true, force: true })
    await this.source?.drop()
  }

  /** The environment of a `mailroom` command run on this Mailroom (PostgreSQL's, or PGlite's in the data folder). */
  env(): Record<string, string> {
    const base = { MAILROOM_DATA_DIR: this.dataDir, LOG_LEVEL: 'silent', USER: 'ops' }
    return this.database.url ? { ...base, DATABASE_URL: this.database.url } : base
  }

  /** The arguments of `mailroom import maarch` from the generated installation, then `args`. */
  importArguments(args: readonly string[]): string[] {
    return ['import', 'maarch', '--from', this.source.url, '--docservers', this.source.docservers, ...args]
  }

  /** Runs `mailroom import maarch … args` in the test's process. */
  importMaarch(args: readonly string[]): Promise<CliRun> {
    return captureCli(this.importArguments(args), this.env())
  }

  /** The environment of `mailroom serve` on the imported Mailroom, without the demo organisation. */
  serverEnv(): Record<string, string> {
    return {
      MAILROOM_DATA_DIR: this.dataDir,
      DATABASE_URL: this.database.url ?? '',
      MAILROOM_SECRET: IMPORT_TEST_SECRET,
      MAILROOM_DEMO: '0',
    }
  }
}

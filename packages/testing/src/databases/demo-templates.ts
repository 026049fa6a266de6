import { execFile } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { access, appendFile, mkdir, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { PGlite } from '@electric-sql/pglite'
import { createMailroom, type MailroomOptions } from '@mailroom/mailroom'
import { PGLITE_EXTENSIONS } from '@mailroom/storage'
import pg from 'pg'
import { DEMO_TEMPLATES_ENV, postgresTemplateName, type TemplateContents } from './demo-template-names.js'

export { DEMO_TEMPLATES_ENV, postgresTemplateName }

const execFileAsync = promisify(execFile)

function pgliteTemplateFileName(contents: TemplateContents): string {
  return `pglite-${contents}.tar`
}

/**
 * Migrating and loading the demo dataset is most of what a test file's setup costs (seconds on PGlite). A test
 * run does it once per database kind and copies the result for each test Mailroom: PGlite from a tarball of
 * its data directory, PostgreSQL from a template database. The copies are the same state a fresh migration
 * and demo load leave, so createMailroom finds nothing to migrate and the demo already there.
 */
export interface DemoTemplateInputs {
  readonly hasher: NonNullable<MailroomOptions['passwordHasher']>
  readonly secret: string
}

function templatesFolder(): string | null {
  return process.env[DEMO_TEMPLATES_ENV] ?? null
}

async function prepareOnce(
  folder: string,
  inputs: DemoTemplateInputs,
  target: MailroomOptions['database'],
  contents: TemplateContents,
) {
  const docservers = await mkdtemp(join(folder, 'docservers-'))
  try {
    const mailroom = await createMailroom({
      database: target,
      docserverDir: docservers,
      secret: inputs.secret,
      demo: contents === 'demo',
      passwordHasher: inputs.hasher,
      fulltext: { workers: 0 },
    })
    await mailroom.close()
  } finally {
    await rm(docservers, { recursive: true, force: true })
  }
}

/** Tarballs already read by this process: a Blob is immutable, so each test Mailroom of a worker opens the same one. */
const readTarballs = new Map<string, Promise<Blob>>()

/** A PGlite template as a tarball to open in memory, built on first use in this run; null outside a run. */
export async function pgliteTemplate(inputs: DemoTemplateInputs, contents: TemplateContents): Promise<Blob | null> {
  const file = await pgliteTemplateFile(inputs, contents)
  if (file === null) return null
  let tarball = readTarballs.get(file)
  if (!tarball) {
    tarball = readFile(file).then(
      (bytes) => new Blob([bytes]),
      (error: unknown) => {
        readTarballs.delete(file)
        throw error
      },
    )
    readTarballs.set(file, tarball)
  }
  return tarball
}

/**
 * Fills `dataDir` (absent or empty) with the PGlite demo template, as the data directory of an embedded database on
 * disk: what a `mailroom` process of a test opens, then finding nothing to migrate and the demo loaded (a migration
 * and demo load in every process spawned was seconds of CPU: PGlite's migrations, the demo passwords hashed at the
 * production cost). False, with nothing written, outside a run.
 */
export async function unpackPgliteDemoTemplate(inputs: DemoTemplateInputs, dataDir: string): Promise<boolean> {
  const file = await pgliteTemplateFile(inputs, 'demo')
  if (file === null) return false
  await mkdir(dataDir, { recursive: true })
  // The tarball is PGlite's dump of its PGDATA (member names from `/`): the same files it unpacks in memory.
  await execFileAsync('tar', ['-xf', file, '-C', dataDir])
  return true
}

/** The path of a PGlite template's tarball, built on first use in this run; null outside a run. */
async function pgliteTemplateFile(inputs: DemoTemplateInputs, contents: TemplateContents): Promise<string | null> {
  const folder = templatesFolder()
  if (folder === null) return null
  const file = join(folder, pgliteTemplateFileName(contents))
  if (
    await access(file).then(
      () => true,
      () => false,
    )
  )
    return file
  // Two test files starting together may both build it; each writes its own file and renames it into place.
  const dataDir = join(folder, `pglite-${randomUUID()}`)
  try {
    // Initialised here with 1 MB WAL segments instead of initdb's 16 MB, and old segments removed rather than kept
    // for reuse: the segments are in every copy whatever they hold, so each test Mailroom streamed 16 of the
    // tarball's 43 MB into its memory for nothing. createMailroom then opens the folder as it is.
    await (await PGlite.create(dataDir, { initDbStartParams: ['--wal-segsize=1'] })).close()
    await appendFile(join(dataDir, 'postgresql.conf'), '\nmin_wal_size = 2MB\nwal_recycle = off\n')
    await prepareOnce(folder, inputs, { kind: 'pglite', dataDir }, contents)
    const pglite = await PGlite.create(dataDir, { extensions: PGLITE_EXTENSIONS })
    const tarball = await pglite.dumpDataDir('none')
    await pglite.close()
    const bytes = new Uint8Array(await tarball.arrayBuffer())
    const partial = `${file}.${randomUUID()}`
    await writeFile(partial, bytes)
    await rename(partial, file)
    return file
  } finally {
    await rm(dataDir, { recursive: true, force: true })
  }
}

/**
 * The name of this run's PostgreSQL template of these contents, built on first use; null outside a run. Building
 * holds an advisory lock, and the finished database gets its final name by a rename, so a copy never sees a
 * half-built one.
 */
export async function postgresTemplate(
  adminUrl: string,
  inputs: DemoTemplateInputs,
  contents: TemplateContents,
): Promise<string | null> {
  const folder = templatesFolder()
  if (folder === null) return null
  const name = postgresTemplateName(folder, contents)
  const admin = new pg.Client({ connectionString: adminUrl })
  await admin.connect()
  try {
    const exists = async () =>
      (await admin.query('select 1 from pg_database where datname = $1', [name])).rowCount === 1
    if (await exists()) return name
    await admin.query('select pg_advisory_lock(hashtext($1))', [name])
    try {
      if (await exists()) return name
      const building = `${name}_building`
      await admin.query(`drop database if exists ${building} with (force)`)
      await admin.query(`create database ${building}`)
      const url = new URL(adminUrl)
      url.pathname = `/${building}`
      await prepareOnce(folder, inputs, { kind: 'postgres', url: url.toString(), poolSize: 2 }, contents)
      await admin.query(`alter database ${building} rename to ${name}`)
      return name
    } finally {
      await admin.query('select pg_advisory_unlock(hashtext($1))', [name])
    }
  } finally {
    await admin.end()
  }
}

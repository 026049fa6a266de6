import { createHash, randomBytes } from 'node:crypto'
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Kysely } from 'kysely'
import type { Database } from '../../database/schema.js'

/** A record made for content tests without the create endpoint: rows inserted, file written directly. */
export interface TestRecordInput {
  /** File bytes; omit for a record without file. */
  readonly bytes?: Uint8Array
  readonly format?: string
  readonly subject?: string | null
  readonly typist?: number
  readonly destination?: string | null
  readonly altIdentifier?: string | null
  readonly status?: string
  readonly version?: number
  /** Stored fingerprint (default: the SHA-256 of bytes); null stores none. */
  readonly fingerprint?: string | null
  readonly filesize?: number | null
  readonly docserverId?: string
}

/** What insertTestRecord made. */
export interface TestRecord {
  readonly resId: number
  /** Absolute path of the stored file ('' without file). */
  readonly filePath: string
}

/** Writes `bytes` under `<docserverDir>/<area>/2024/01/0001/` and returns the columns placing it. */
export async function writeTestFile(docserverDir: string, area: string, bytes: Uint8Array, extension: string) {
  const path = '2024/01/0001/'
  const filename = `${randomBytes(8).toString('hex')}.${extension}`
  const dir = join(docserverDir, area, path)
  await mkdir(dir, { recursive: true })
  const filePath = join(dir, filename)
  await writeFile(filePath, bytes)
  return { path, filename, filePath, fingerprint: createHash('sha256').update(bytes).digest('hex'), filesize: bytes.length }
}

/** Inserts a record (PJS destination, typed by superadmin, status COU by default) with its file in FASTHD_MAN. */
export async function insertTestRecord(db: Kysely<Database>, docserverDir: string, input: TestRecordInput = {}): Promise<TestRecord> {
  const format = input.format ?? 'pdf'
  const file = input.bytes ? await writeTestFile(docserverDir, 'resources', input.bytes, format.toLowerCase()) : undefined
  const row = await db
    .insertInto('res_letterbox')
    .values({
      subject: input.subject === undefined ? 'Courrier de test' : input.subject,
      type_id: 101,
      format: file ? format : null,
      typist: input.typist ?? 1,
      destination: input.destination === undefined ? 'PJS' : input.destination,
      status: input.status ?? 'COU',
      category_id: 'incoming',
      model_id: 1,
      alt_identifier: input.altIdentifier ?? null,
      version: input.version ?? 1,
      docserver_id: file ? (input.docserverId ?? 'FASTHD_MAN') : null,
      path: file?.path ?? null,
      filename: file?.filename ?? null,
      fingerprint: file ? (input.fingerprint === undefined ? file.fingerprint : input.fingerprint) : null,
      filesize: file ? (input.filesize === undefined ? file.filesize : input.filesize) : null,
    })
    .returning('res_id')
    .executeTakeFirstOrThrow()
  return { resId: row.res_id, filePath: file?.filePath ?? '' }
}

/** Inserts an adr_letterbox file (SIGN, NOTE, DOC, PDF) of a version, stored in CONVERT_MLB. */
export async function insertTestAdr(
  db: Kysely<Database>,
  docserverDir: string,
  input: { resId: number; type: string; version: number; bytes: Uint8Array; extension?: string; fingerprint?: string },
): Promise<{ id: number; filePath: string }> {
  const file = await writeTestFile(docserverDir, 'convert', input.bytes, input.extension ?? 'pdf')
  const row = await db
    .insertInto('adr_letterbox')
    .values({
      res_id: input.resId,
      type: input.type,
      version: input.version,
      docserver_id: 'CONVERT_MLB',
      path: file.path,
      filename: file.filename,
      fingerprint: input.fingerprint ?? file.fingerprint,
      filesize: file.filesize,
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  return { id: row.id, filePath: file.filePath }
}

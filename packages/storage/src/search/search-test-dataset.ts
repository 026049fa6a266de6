/**
 * A seeded set of records for search tests (test-only, not exported by the package): every destination
 * crossed with three typists, various statuses, custom fields, external ids, chrono numbers, diffusion
 * lists and files, plus a bulk of plain records; and the runtime contract's perimeter written naively
 * for the demo users, to compare the service's answers with.
 */
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { type Kysely, sql } from 'kysely'
import type { Database } from '../database/schema.js'

/** What the tests know about one seeded record. */
export interface SeededRecord {
  readonly resId: number
  readonly destination: string | null
  readonly typist: number
  readonly status: string
  readonly category: string
  readonly chrono: string | null
  readonly customFields: Record<string, string>
  readonly externalId: Record<string, string>
  readonly creationDate: string
  readonly diffusion: readonly { readonly type: 'user_id' | 'entity_id'; readonly id: number }[]
  /** The stored file's bytes; null when the record has no file or its file is missing from storage. */
  readonly file: Uint8Array | null
  /** The record names a file that is not on disk. */
  readonly fileMissing: boolean
}

/** A demo user as the naive perimeter needs it. */
export interface DemoUser {
  readonly login: string
  readonly password: string
  readonly id: number
  /** Serial ids of the user's entities. */
  readonly entityIds: readonly number[]
}

/** The demo users of runtime-contract.md. */
export const DEMO_USERS: readonly DemoUser[] = [
  { login: 'superadmin', password: 'superadmin', id: 1, entityIds: [1] },
  { login: 'cchaplin', password: 'maarch', id: 2, entityIds: [1] },
  { login: 'bbain', password: 'maarch', id: 3, entityIds: [6] },
  { login: 'bblier', password: 'maarch', id: 4, entityIds: [3] },
  { login: 'ppetit', password: 'maarch', id: 5, entityIds: [8, 2] },
  { login: 'ddur', password: 'maarch', id: 6, entityIds: [4] },
]

const GROUP_GRANTS: Readonly<Record<string, (destination: string | null) => boolean>> = {
  superadmin: () => true,
  cchaplin: () => true,
  ppetit: () => true,
  bbain: (d) => d === 'PJS' || d === 'PE',
  bblier: (d) => d !== null && ['DGS', 'DRH', 'DSI', 'PJS', 'PE'].includes(d),
  ddur: () => false,
}

/** The contract's perimeter, naively: group grant by destination, or typed by the user, or on their diffusion list. */
export function naiveVisible(user: DemoUser, record: Pick<SeededRecord, 'destination' | 'typist' | 'diffusion'>): boolean {
  return (
    (GROUP_GRANTS[user.login] ?? (() => false))(record.destination) ||
    record.typist === user.id ||
    record.diffusion.some((d) => (d.type === 'user_id' && d.id === user.id) || (d.type === 'entity_id' && user.entityIds.includes(d.id)))
  )
}

const DESTINATIONS = ['VILLE', 'CAB', 'DGS', 'DRH', 'DSI', 'PJS', 'PE', 'COU', null] as const
const STATUSES = ['NEW', 'COU', 'END', 'DEL'] as const
const TYPISTS = [1, 3, 6] as const

/** Deterministic bytes (every value 0-255 appears), so files compare exactly. */
function bytesOf(size: number, seed: number): Uint8Array {
  const out = new Uint8Array(size)
  let x = seed * 2654435761
  for (let i = 0; i < size; i++) {
    x = (x * 1103515245 + 12345) >>> 0
    out[i] = x >>> 24
  }
  return out
}

/** Sizes of the seeded files: empty, tiny, around the 3-byte boundary, and across the read-chunk size. */
const FILE_SIZES = [0, 1, 2, 3, 4, 5000, 3 * 64 * 1024, 3 * 64 * 1024 + 1, 3 * 64 * 1024 * 2 + 2]

/** Number of plain records added in bulk (enough to pass the default limit of 100). */
export const BULK_RECORDS = 130

/**
 * Inserts the dataset (27 varied records, then the bulk) and writes their files under the docserver root
 * (storage area FASTHD_MAN, template `resources/`). Returns the records in res_id order.
 */
export async function seedSearchDataset(db: Kysely<Database>, docserverDir: string): Promise<SeededRecord[]> {
  const records: SeededRecord[] = []
  let n = 0
  let fileIndex = 0
  for (const destination of DESTINATIONS) {
    for (const typist of TYPISTS) {
      n++
      const status = STATUSES[n % STATUSES.length]!
      const category = n % 2 === 0 ? 'outgoing' : 'incoming'
      const chrono = n % 7 === 0 ? null : `MAARCH/2025${category === 'outgoing' ? 'D' : 'A'}/${n}`
      const customFields = { '1': `REF-${n}`, '3': n % 3 === 0 ? 'Mail' : 'Courrier' }
      const externalId = { msgid: `<m${n}@example.org>` }
      const creationDate = new Date(Date.UTC(2025, 0, n, 8, 30, 15, 123)).toISOString()
      const diffusion: { type: 'user_id' | 'entity_id'; id: number }[] = []
      if (n % 4 === 0) diffusion.push({ type: 'user_id', id: 6 })
      if (n % 5 === 0) diffusion.push({ type: 'entity_id', id: 6 })
      if (n % 6 === 0) diffusion.push({ type: 'user_id', id: 3 })
      if (n % 8 === 0) diffusion.push({ type: 'entity_id', id: 2 })
      // Every third record has a file; one names a file that is not on disk.
      const hasFile = n % 3 === 0
      const fileMissing = n === 26
      const file = hasFile ? bytesOf(FILE_SIZES[fileIndex++ % FILE_SIZES.length]!, n) : null
      const path = hasFile || fileMissing ? `2025/01/${String(n).padStart(4, '0')}/` : null
      const filename = hasFile || fileMissing ? `${String(n).padStart(4, '0')}_${n * 7919}.bin` : null
      const row = await db
        .insertInto('res_letterbox')
        .values({
          subject: `Courrier ${n} l'été`,
          type_id: 101 + (n % 5),
          typist,
          category_id: category,
          model_id: category === 'outgoing' ? 2 : 1,
          status,
          destination,
          alt_identifier: chrono,
          custom_fields: JSON.stringify(customFields),
          external_id: JSON.stringify(externalId),
          creation_date: creationDate,
          docserver_id: path ? 'FASTHD_MAN' : null,
          path,
          filename,
          filesize: file ? file.length : null,
          format: path ? 'bin' : null,
          retention_frozen: n % 2 === 0,
          binding: n % 3 === 0 ? null : n % 3 === 1,
        } as never)
        .returning('res_id')
        .executeTakeFirstOrThrow()
      if (file && path && filename) {
        const folder = join(docserverDir, 'resources', path)
        await mkdir(folder, { recursive: true })
        await writeFile(join(folder, filename), file)
      }
      for (const d of diffusion) await db.insertInto('listinstance').values({ res_id: row.res_id, item_id: d.id, item_type: d.type, item_mode: 'cc' }).execute()
      records.push({ resId: Number(row.res_id), destination, typist, status, category, chrono, customFields, externalId, creationDate, diffusion, file: fileMissing ? null : file, fileMissing })
    }
  }
  const bulk = await sql<{ res_id: number; creation_date: Date }>`
    insert into res_letterbox (subject, type_id, typist, category_id, model_id, status, destination, creation_date)
    select 'bulk ' || g, 101, 1, 'incoming', 1, 'END', 'VILLE', timestamptz '2024-06-01 00:00:00+00' + g * interval '1 hour'
    from generate_series(1, ${sql.lit(BULK_RECORDS)}) g
    returning res_id, creation_date`.execute(db)
  for (const row of bulk.rows) {
    records.push({
      resId: Number(row.res_id),
      destination: 'VILLE',
      typist: 1,
      status: 'END',
      category: 'incoming',
      chrono: null,
      customFields: {},
      externalId: {},
      creationDate: new Date(row.creation_date).toISOString(),
      diffusion: [],
      file: null,
      fileMissing: false,
    })
  }
  return records.sort((a, b) => a.resId - b.resId)
}

import { type Insertable, type InsertType, type Kysely, sql, type Transaction } from 'kysely'
import type {
  AdrLetterboxTable,
  Database,
  HistoryTable,
  ListinstanceTable,
  ResAttachmentsTable,
  ResLetterboxTable,
  ResourceContactsTable,
} from '../database/schema.js'
import { loadSafeDirectory } from '../journal/journal-rows.js'
import type {
  JournalDepositRequest,
  JournalRowsOfCommit,
  JournalWriter,
  PendingJournalRow,
  PreparedDeposit,
} from '../journal/journal-writer.js'

/**
 * A record's own row as another installation had it, its id included. Any column may hold null: the
 * database judges, so a value it refuses (a null where Mailroom requires a value, a status it does not
 * have) fails the insert and the importer can report that record. An absent column takes its default.
 */
export type ImportedRecordRow = { readonly res_id: number } & {
  readonly [C in Exclude<keyof ResLetterboxTable, 'res_id'>]?: InsertType<ResLetterboxTable[C]> | null
}

/** A converted version of the record's file (adr_letterbox), its file already stored. */
export type ImportedVersionRow = Omit<Insertable<AdrLetterboxTable>, 'id' | 'res_id'>

/** An entry of the record's diffusion list (listinstance). */
export type ImportedListItemRow = Omit<Insertable<ListinstanceTable>, 'listinstance_id' | 'res_id'>

/** A sender or recipient of the record (resource_contacts). */
export type ImportedContactRow = Omit<Insertable<ResourceContactsTable>, 'id' | 'res_id'>

/**
 * An attachment of the record as the other installation had it, its id (res_id) kept so that its versions'
 * origin_id still point at it; its file already stored.
 */
export type ImportedAttachmentRow = { readonly res_id: number } & Omit<
  Insertable<ResAttachmentsTable>,
  'res_id' | 'res_id_master'
>

/** A history row of the record; its table and record id are the record's. */
export type ImportedHistoryRow = Omit<Insertable<HistoryTable>, 'id' | 'table_name' | 'record_id'>

/** A note on the record (notes), with the entity_ids it is restricted to (note_entities); it gets a new id. */
export interface ImportedNoteRow {
  readonly user_id: number
  readonly creation_date: Date | string
  readonly note_text: string
  readonly entities: readonly string[]
}

/** Everything an import writes of one record. */
export interface ImportedRecord {
  readonly record: ImportedRecordRow
  readonly versions: readonly ImportedVersionRow[]
  readonly diffusion: readonly ImportedListItemRow[]
  readonly contacts: readonly ImportedContactRow[]
  readonly tagIds: readonly number[]
  readonly folderIds: readonly number[]
  /** The record's notes, oldest first (absent: none). */
  readonly notes?: readonly ImportedNoteRow[]
  /** The record's attachments, each version after the one it replaces (absent: none). */
  readonly attachments?: readonly ImportedAttachmentRow[]
  /** The attachments' stored files entering the digital safe, in the record's archive. */
  readonly attachmentDeposits?: readonly Omit<JournalDepositRequest, 'kind' | 'resId'>[]
  /** In the order given: the record's earlier history, then the import's own rows. */
  readonly history: readonly ImportedHistoryRow[]
  /** The record's stored original entering the digital safe; null when it has none (or no depositor). */
  readonly deposit: Omit<JournalDepositRequest, 'kind' | 'resId'> | null
}

/**
 * Writes a record carried over from another installation (its id, dates and lists as they were) with its
 * journal deposit, in the caller's transaction: the caller commits it whole or not at all, and removes the
 * stored files when it fails. One statement per table the record has rows in.
 */
export async function insertImportedRecord(
  trx: Transaction<Database>,
  journal: JournalWriter,
  imported: ImportedRecord,
): Promise<void> {
  const resId = imported.record.res_id
  await insertRecordRow(trx, imported.record)
  if (imported.diffusion.length > 0)
    await trx
      .insertInto('listinstance')
      .values(imported.diffusion.map((item) => ({ ...item, res_id: resId })))
      .execute()
  if (imported.contacts.length > 0)
    await trx
      .insertInto('resource_contacts')
      .values(imported.contacts.map((contact) => ({ ...contact, res_id: resId })))
      .execute()
  if (imported.tagIds.length > 0)
    await trx
      .insertInto('resources_tags')
      .values(imported.tagIds.map((tag_id) => ({ res_id: resId, tag_id })))
      .execute()
  if (imported.folderIds.length > 0)
    await trx
      .insertInto('resources_folders')
      .values(imported.folderIds.map((folder_id) => ({ res_id: resId, folder_id })))
      .execute()
  if (imported.versions.length > 0)
    await trx
      .insertInto('adr_letterbox')
      .values(imported.versions.map((version) => ({ ...version, res_id: resId })))
      .execute()
  for (const note of imported.notes ?? []) await insertImportedNote(trx, resId, note)
  // One at a time, in id order: a version's origin_id refers to an attachment inserted before it.
  for (const attachment of [...(imported.attachments ?? [])].sort((a, b) => a.res_id - b.res_id))
    await trx
      .insertInto('res_attachments')
      .values({ ...attachment, res_id_master: resId })
      .execute()
  if (imported.history.length > 0)
    await trx
      .insertInto('history')
      .values(imported.history.map((row) => ({ ...row, table_name: 'res_letterbox', record_id: String(resId) })))
      .execute()
  if (imported.deposit !== null) await journal.deposit(trx, { ...imported.deposit, kind: 'deposit', resId })
  // As an attachment added in Mailroom: its file joins the record's archive (opened here when the record has none).
  for (const deposit of imported.attachmentDeposits ?? [])
    await journal.deposit(trx, { ...deposit, kind: 'newResource', resId })
}

/** Rows per insert statement of {@link insertImportedRecords} (PostgreSQL takes at most 65,535 parameters). */
const ROWS_PER_STATEMENT = 500

function chunks<T>(rows: readonly T[], size = ROWS_PER_STATEMENT): T[][] {
  const out: T[][] = []
  for (let i = 0; i < rows.length; i += size) out.push(rows.slice(i, i + size))
  return out
}

/**
 * Writes many records carried over from another installation, as {@link insertImportedRecord} writes one,
 * with one statement per table for all of them (a few hundred rows each) rather than one per record: a
 * batch of an import costs a few round trips, not ten per record. Run it inside `journal.committing` (its
 * `rows` prepare the deposits), in the caller's transaction, which commits the batch whole or not at all.
 */
export async function insertImportedRecords(
  trx: Transaction<Database>,
  journal: JournalWriter,
  rows: JournalRowsOfCommit,
  records: readonly ImportedRecord[],
): Promise<void> {
  if (records.length === 0) return
  // Records with the same columns go in one statement (an absent column keeps its default).
  const shapes = new Map<string, ImportedRecordRow[]>()
  for (const { record } of records) {
    const key = Object.keys(record)
      .filter((column) => record[column as keyof ImportedRecordRow] !== undefined)
      .join(',')
    const same = shapes.get(key)
    if (same) same.push(record)
    else shapes.set(key, [record])
  }
  for (const [key, same] of shapes)
    for (const part of chunks(same, Math.max(1, Math.floor(60_000 / Math.max(1, key.split(',').length))))) {
      const columns = key.split(',')
      await sql`insert into res_letterbox (${sql.join(columns.map((column) => sql.ref(column)))}) values ${sql.join(
        part.map((row) => sql`(${sql.join(columns.map((column) => row[column as keyof ImportedRecordRow]))})`),
      )}`.execute(trx)
    }
  const all = <T>(of: (imported: ImportedRecord, resId: number) => readonly T[]): T[] =>
    records.flatMap((imported) => of(imported, imported.record.res_id))
  for (const part of chunks(all((r, res_id) => r.diffusion.map((item) => ({ ...item, res_id })))))
    await trx.insertInto('listinstance').values(part).execute()
  for (const part of chunks(all((r, res_id) => r.contacts.map((contact) => ({ ...contact, res_id })))))
    await trx.insertInto('resource_contacts').values(part).execute()
  for (const part of chunks(all((r, res_id) => r.tagIds.map((tag_id) => ({ res_id, tag_id })))))
    await trx.insertInto('resources_tags').values(part).execute()
  for (const part of chunks(all((r, res_id) => r.folderIds.map((folder_id) => ({ res_id, folder_id })))))
    await trx.insertInto('resources_folders').values(part).execute()
  for (const part of chunks(all((r, res_id) => r.versions.map((version) => ({ ...version, res_id })))))
    await trx.insertInto('adr_letterbox').values(part).execute()
  for (const imported of records)
    for (const note of imported.notes ?? []) await insertImportedNote(trx, imported.record.res_id, note)
  // In id order: a version's origin_id refers to an attachment inserted before it (or in the same statement,
  // whose foreign keys are checked at its end).
  const attachments = all((r, res_id_master) => (r.attachments ?? []).map((a) => ({ ...a, res_id_master }))).sort(
    (a, b) => a.res_id - b.res_id,
  )
  for (const part of chunks(attachments)) await trx.insertInto('res_attachments').values(part).execute()
  for (const part of chunks(
    all((r, resId) => r.history.map((row) => ({ ...row, table_name: 'res_letterbox', record_id: String(resId) }))),
  ))
    await trx.insertInto('history').values(part).execute()
  // The deposits: each record's archive and event prepared without a query, its attachments' files joining it.
  const directory = await loadSafeDirectory(trx)
  const archives: PreparedDeposit['archive'][] = []
  const pending: PendingJournalRow[] = []
  const withoutArchive: ImportedRecord[] = []
  for (const imported of records) {
    const resId = imported.record.res_id
    if (imported.deposit === null) {
      if ((imported.attachmentDeposits ?? []).length > 0) withoutArchive.push(imported)
      continue
    }
    const prepared = rows.prepareDeposit(directory, { ...imported.deposit, resId })
    archives.push(prepared.archive)
    pending.push(prepared.pending)
    const archive = { archiveId: prepared.archive.archive_id, safe: prepared.safe }
    for (const deposit of imported.attachmentDeposits ?? [])
      pending.push(journal.newResourceRow(directory, archive, { ...deposit, resId }))
  }
  for (const part of chunks(archives)) await trx.insertInto('journal_archives').values(part).execute()
  for (const part of chunks(pending, 200)) await trx.insertInto('journal_pending').values(part).execute()
  // Attachments of a record without a deposited original: the first opens the record's archive.
  for (const imported of withoutArchive)
    for (const deposit of imported.attachmentDeposits ?? [])
      await journal.deposit(trx, { ...deposit, kind: 'newResource', resId: imported.record.res_id })
}

/** A note and its restriction; notes are numbered anew (Mailroom may have notes of its own under Maarch's ids). */
export async function insertImportedNote(
  trx: Transaction<Database>,
  resId: number,
  note: ImportedNoteRow,
): Promise<void> {
  const { id } = await trx
    .insertInto('notes')
    .values({ identifier: resId, user_id: note.user_id, creation_date: note.creation_date, note_text: note.note_text })
    .returning('id')
    .executeTakeFirstOrThrow()
  const entities = [...new Set(note.entities)]
  if (entities.length > 0)
    await trx
      .insertInto('note_entities')
      .values(entities.map((item_id) => ({ note_id: id, item_id })))
      .execute()
}

/**
 * The record's row, the columns it has and no others (an absent one keeps its default). Written as SQL
 * rather than through kysely's typed insert: the row may hold values the schema's types rule out, which the
 * database then refuses; column names are quoted as identifiers and values travel as parameters.
 */
async function insertRecordRow(trx: Transaction<Database>, row: ImportedRecordRow): Promise<void> {
  const columns = Object.entries(row).filter(([, value]) => value !== undefined)
  await sql`insert into res_letterbox (${sql.join(columns.map(([column]) => sql.ref(column)))}) values (${sql.join(columns.map(([, value]) => value))})`.execute(
    trx,
  )
}

/** The tables an import fills, whose statistics it keeps current (refreshImportStatistics). */
const IMPORTED_TABLES = [
  'res_letterbox',
  'listinstance',
  'resource_contacts',
  'history',
  'adr_letterbox',
  'res_attachments',
  'notes',
  'journal_archives',
  'journal_pending',
] as const

/**
 * ANALYZE of the tables an import fills. A statement the pool prepared while they were nearly empty keeps the
 * plan made then (a sequential scan of `res_letterbox` to find 100 ids by primary key, once per batch) until
 * their statistics change; with autovacuum off, or behind, that is never, and an import of 100,000 records
 * slowed by half from its 50,000th (docs/benchmarks.md). Fresh statistics make PostgreSQL plan them again.
 */
export async function refreshImportStatistics(db: Kysely<Database>): Promise<void> {
  await sql`analyze ${sql.join(IMPORTED_TABLES.map((table) => sql.table(table)))}`.execute(db)
}

/** Which of these record ids the database already has (an import run again skips them). */
export async function existingRecordIds(db: Kysely<Database>, resIds: readonly number[]): Promise<Set<number>> {
  if (resIds.length === 0) return new Set()
  const rows = await db.selectFrom('res_letterbox').select('res_id').where('res_id', 'in', resIds).execute()
  return new Set(rows.map((r) => Number(r.res_id)))
}

/** Which of these attachment ids the database already has (they came with their record on an earlier run). */
export async function existingAttachmentIds(db: Kysely<Database>, resIds: readonly number[]): Promise<Set<number>> {
  if (resIds.length === 0) return new Set()
  const rows = await db.selectFrom('res_attachments').select('res_id').where('res_id', 'in', resIds).execute()
  return new Set(rows.map((r) => Number(r.res_id)))
}

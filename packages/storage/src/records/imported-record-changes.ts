import { type Kysely, sql, type Transaction } from 'kysely'
import type { Database, ResLetterboxTable } from '../database/schema.js'
import type { JournalDepositRequest, JournalWriter } from '../journal/journal-writer.js'
import {
  type ImportedAttachmentRow,
  type ImportedContactRow,
  type ImportedHistoryRow,
  type ImportedListItemRow,
  type ImportedNoteRow,
  type ImportedVersionRow,
  insertImportedNote,
} from './imported-record.js'

/** A row as the database gives it (column name to value). */
export type StoredRow = Readonly<Record<string, unknown>>

/** What Mailroom holds of an imported record, for comparing with its source again. */
export interface ImportedRecordState {
  readonly record: StoredRow
  /** adr_letterbox rows (type, version, file). */
  readonly versions: readonly StoredRow[]
  readonly diffusion: readonly StoredRow[]
  readonly contacts: readonly StoredRow[]
  readonly tagIds: readonly number[]
  readonly folderIds: readonly number[]
  /** Notes with `entities`: their note_entities item_ids. */
  readonly notes: readonly StoredRow[]
  readonly attachments: readonly StoredRow[]
  readonly history: readonly StoredRow[]
}

/**
 * The columns of a record an import compares with its source or reads to carry a change (its file's): every
 * one an import writes. Not `selectAll()`: `fulltext_document` (migration 0019), the tsvector of all the
 * record's texts, is never written by an import nor compared, and is the widest column of the row, read for
 * every record a delta run examines. Its test checks the list against the table's columns.
 */
const IMPORTED_RECORD_COLUMNS = [
  ...['res_id', 'subject', 'type_id', 'format', 'typist', 'creation_date', 'modification_date', 'doc_date'],
  ...['docserver_id', 'path', 'filename', 'fingerprint', 'filesize', 'status', 'destination', 'work_batch'],
  ...['origin', 'priority', 'policy_id', 'cycle_id', 'initiator', 'dest_user', 'locker_user_id', 'locker_time'],
  ...['confidentiality', 'fulltext_result', 'external_id', 'departure_date', 'opinion_limit_date', 'barcode'],
  ...['category_id', 'alt_identifier', 'admission_date', 'process_limit_date', 'closing_date', 'alarm1_date'],
  ...['alarm2_date', 'flag_alarm1', 'flag_alarm2', 'model_id', 'version', 'integrations', 'custom_fields'],
  ...['linked_resources', 'retention_frozen', 'binding'],
] as const satisfies readonly (keyof ResLetterboxTable)[]

/** The record's rows in Mailroom, or null when it has no such record. */
export async function importedRecordState(db: Kysely<Database>, resId: number): Promise<ImportedRecordState | null> {
  const record = await db
    .selectFrom('res_letterbox')
    .select(IMPORTED_RECORD_COLUMNS)
    .where('res_id', '=', resId)
    .executeTakeFirst()
  if (!record) return null
  const notes = await db.selectFrom('notes').selectAll().where('identifier', '=', resId).orderBy('id').execute()
  const noteEntities =
    notes.length === 0
      ? []
      : await db
          .selectFrom('note_entities')
          .select(['note_id', 'item_id'])
          .where(
            'note_id',
            'in',
            notes.map((n) => n.id),
          )
          .orderBy('id')
          .execute()
  return {
    record,
    versions: await db.selectFrom('adr_letterbox').selectAll().where('res_id', '=', resId).execute(),
    diffusion: await db
      .selectFrom('listinstance')
      .selectAll()
      .where('res_id', '=', resId)
      .orderBy('listinstance_id')
      .execute(),
    contacts: await db.selectFrom('resource_contacts').selectAll().where('res_id', '=', resId).orderBy('id').execute(),
    tagIds: (await db.selectFrom('resources_tags').select('tag_id').where('res_id', '=', resId).execute()).map((t) =>
      Number(t.tag_id),
    ),
    folderIds: (await db.selectFrom('resources_folders').select('folder_id').where('res_id', '=', resId).execute()).map(
      (f) => Number(f.folder_id),
    ),
    notes: notes.map((n) => ({
      ...n,
      entities: noteEntities.filter((e) => e.note_id === n.id).map((e) => e.item_id),
    })),
    attachments: await db
      .selectFrom('res_attachments')
      .selectAll()
      .where('res_id_master', '=', resId)
      .orderBy('res_id')
      .execute(),
    history: await db
      .selectFrom('history')
      .selectAll()
      .where('table_name', '=', 'res_letterbox')
      .where('record_id', '=', String(resId))
      .orderBy('id')
      .execute(),
  }
}

/**
 * What an import carries over onto a record it imported earlier. Lists given replace the record's; the
 * rest is added. A changed file is never written over: the new one is stored beside it, and deposited.
 */
export interface ImportedRecordChanges {
  readonly resId: number
  /** Columns of the record's row to set (only those that changed; a new original's file columns included). */
  readonly set: Readonly<Record<string, unknown>>
  /** adr_letterbox rows to add (a new original's predecessor among them, as type DOC). */
  readonly versions: readonly ImportedVersionRow[]
  readonly diffusion?: readonly ImportedListItemRow[]
  readonly contacts?: readonly ImportedContactRow[]
  readonly tagIds?: readonly number[]
  readonly folderIds?: readonly number[]
  readonly notes: readonly ImportedNoteRow[]
  /** New attachments, each version after the one it replaces. */
  readonly attachments: readonly (ImportedAttachmentRow & { readonly res_id_master: number })[]
  /** Columns to set on attachments already imported. */
  readonly attachmentUpdates: readonly { readonly resId: number; readonly set: Readonly<Record<string, unknown>> }[]
  readonly history: readonly ImportedHistoryRow[]
  /** New stored files (an original, an attachment's) joining the record's archive in the digital safe. */
  readonly deposits: readonly Omit<JournalDepositRequest, 'kind' | 'resId'>[]
}

/** Sets columns of a row as SQL: names quoted as identifiers, values as parameters (the database judges them). */
async function setColumns(
  trx: Transaction<Database>,
  table: 'res_letterbox' | 'res_attachments',
  resId: number,
  set: Readonly<Record<string, unknown>>,
): Promise<void> {
  const columns = Object.entries(set).filter(([, value]) => value !== undefined)
  if (columns.length === 0) return
  await sql`update ${sql.table(table)} set ${sql.join(columns.map(([column, value]) => sql`${sql.ref(column)} = ${value}`))} where res_id = ${resId}`.execute(
    trx,
  )
}

/**
 * Writes the changes carried over onto an imported record, in the caller's transaction (whole or nothing;
 * the caller removes the files it stored when it fails).
 */
export async function applyImportedRecordChanges(
  trx: Transaction<Database>,
  journal: JournalWriter,
  changes: ImportedRecordChanges,
): Promise<void> {
  const { resId } = changes
  await setColumns(trx, 'res_letterbox', resId, changes.set)
  if (changes.versions.length > 0)
    await trx
      .insertInto('adr_letterbox')
      .values(changes.versions.map((version) => ({ ...version, res_id: resId })))
      .onConflict((oc) => oc.columns(['res_id', 'type', 'version']).doNothing())
      .execute()
  if (changes.diffusion) {
    await trx.deleteFrom('listinstance').where('res_id', '=', resId).execute()
    if (changes.diffusion.length > 0)
      await trx
        .insertInto('listinstance')
        .values(changes.diffusion.map((item) => ({ ...item, res_id: resId })))
        .execute()
  }
  if (changes.contacts) {
    await trx.deleteFrom('resource_contacts').where('res_id', '=', resId).execute()
    if (changes.contacts.length > 0)
      await trx
        .insertInto('resource_contacts')
        .values(changes.contacts.map((contact) => ({ ...contact, res_id: resId })))
        .execute()
  }
  if (changes.tagIds) {
    await trx.deleteFrom('resources_tags').where('res_id', '=', resId).execute()
    if (changes.tagIds.length > 0)
      await trx
        .insertInto('resources_tags')
        .values(changes.tagIds.map((tag_id) => ({ res_id: resId, tag_id })))
        .execute()
  }
  if (changes.folderIds) {
    await trx.deleteFrom('resources_folders').where('res_id', '=', resId).execute()
    if (changes.folderIds.length > 0)
      await trx
        .insertInto('resources_folders')
        .values(changes.folderIds.map((folder_id) => ({ res_id: resId, folder_id })))
        .execute()
  }
  for (const note of changes.notes) await insertImportedNote(trx, resId, note)
  for (const attachment of [...changes.attachments].sort((a, b) => a.res_id - b.res_id))
    await trx.insertInto('res_attachments').values(attachment).execute()
  for (const update of changes.attachmentUpdates) await setColumns(trx, 'res_attachments', update.resId, update.set)
  if (changes.history.length > 0)
    await trx
      .insertInto('history')
      .values(changes.history.map((row) => ({ ...row, table_name: 'res_letterbox', record_id: String(resId) })))
      .execute()
  for (const deposit of changes.deposits) await journal.deposit(trx, { ...deposit, kind: 'newResource', resId })
}

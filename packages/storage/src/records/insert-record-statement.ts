import { CompiledQuery } from 'kysely'
import type { JournalPendingTable, ResLetterboxTable } from '../database/schema.js'
import { statementShapes } from '../database/statement-shapes.js'
import { JOURNAL_COLUMN_TYPES } from '../journal/journal-rows.js'
import { NEXT_RES_ID_SQL } from './lookup-references.js'

/**
 * The record columns a create sets (besides res_id); the others keep their defaults (null, or the
 * table's default for the flags, the links and the retention).
 */
const RECORD_COLUMNS = [
  'model_id',
  'category_id',
  'type_id',
  'subject',
  'alt_identifier',
  'typist',
  'status',
  'destination',
  'initiator',
  'dest_user',
  'confidentiality',
  'doc_date',
  'admission_date',
  'departure_date',
  'process_limit_date',
  'priority',
  'barcode',
  'external_id',
  'custom_fields',
  'integrations',
  'creation_date',
  'modification_date',
  'version',
  'format',
  'docserver_id',
  'path',
  'filename',
  'filesize',
  'fingerprint',
] as const satisfies readonly (keyof ResLetterboxTable)[]

/** The pending journal event's columns (id and created_at keep their defaults). */
const PENDING_COLUMNS = [
  'safe',
  'event_id',
  'event_type',
  'timestamp',
  'instance_name',
  'org_reg_number',
  'org_unit_reg_number',
  'account_id',
  'account_name',
  'object_class',
  'object_id',
  'operation_result',
  'description',
  'info',
] as const satisfies readonly (keyof JournalPendingTable)[]

type RecordColumn = (typeof RECORD_COLUMNS)[number]
type PendingColumn = (typeof PENDING_COLUMNS)[number]

/** One value per record column; JSON columns as JSON text, `integrations` null for the column's default. */
export type RecordColumnValues = { readonly [C in RecordColumn]: unknown }

/** A new record's journal deposit: its archive row and its pending event. */
export interface DepositRows {
  readonly archive: {
    readonly archive_id: string
    readonly safe: string
    readonly created_at?: Date | string | undefined
  }
  readonly pending: { readonly [C in PendingColumn]: unknown }
}

/** Everything one create inserts, as the statement's parameters take it. */
export interface RecordRows {
  /** The reserved id, or null: the identity draws one. */
  readonly resId: number | null
  readonly record: RecordColumnValues
  /** The creation history row's author, date and text. */
  readonly history: { readonly userId: number; readonly date: Date; readonly info: string }
  /** Diffusion list items (user or entity ids, as listinstance.item_id) with their item_type and item_mode. */
  readonly diffusion: readonly { readonly id: number; readonly type: string; readonly mode: string }[]
  readonly contacts: readonly { readonly id: number; readonly type: string; readonly mode: 'sender' | 'recipient' }[]
  readonly folderIds: readonly number[]
  readonly tagIds: readonly number[]
  /** The user who follows the record from its creation, or null. */
  readonly followerId: number | null
  readonly deposit: DepositRows | null
}

/** Where a parameter's value comes from. */
type ParameterValue = (rows: RecordRows) => unknown

/** One CTE of the create statement; `text` numbers each parameter it reads through `parameter`. */
interface InsertPart {
  /** Whether a create has rows for the part; the record and its history row always do. */
  readonly present: (rows: RecordRows) => boolean
  readonly text: (parameter: (value: ParameterValue) => string) => string
}

const always = () => true

/** The parts in statement order. Their texts are constants: caller values only ever travel as parameters. */
const INSERT_PARTS: readonly InsertPart[] = [
  {
    present: always,
    text: (p) => `record as (
  insert into res_letterbox (res_id, ${RECORD_COLUMNS.join(', ')})
  values (coalesce(${p((r) => r.resId)}::bigint, ${NEXT_RES_ID_SQL}), ${RECORD_COLUMNS.map((c) => (c === 'integrations' ? `coalesce(${p((r) => r.record[c])}::jsonb, '{}')` : p((r) => r.record[c]))).join(', ')})
  returning res_id
)`,
  },
  {
    present: always,
    text: (p) => `creation as (
  insert into history (table_name, record_id, event_type, user_id, event_date, info, id_module, remote_ip, event_id)
  select 'res_letterbox', record.res_id::text, 'ADD', ${p((r) => r.history.userId)}::integer, ${p((r) => r.history.date)}::timestamptz, ${p((r) => r.history.info)}::text, 'resource', null, 'resourceCreation'
  from record
)`,
  },
  {
    present: (rows) => rows.diffusion.length > 0,
    text: (p) => `diffusion as (
  insert into listinstance (res_id, sequence, item_id, item_type, item_mode, added_by_user, difflist_type)
  select record.res_id, 0, item.id, item.type, item.mode, ${p((r) => r.history.userId)}::integer, 'entity_id'
  from record, unnest(${p((r) => r.diffusion.map((i) => i.id))}::integer[], ${p((r) => r.diffusion.map((i) => i.type))}::text[], ${p((r) => r.diffusion.map((i) => i.mode))}::text[]) as item(id, type, mode)
)`,
  },
  {
    present: (rows) => rows.contacts.length > 0,
    text: (p) => `contacts as (
  insert into resource_contacts (res_id, item_id, type, mode)
  select record.res_id, contact.id, contact.type, contact.mode
  from record, unnest(${p((r) => r.contacts.map((c) => c.id))}::integer[], ${p((r) => r.contacts.map((c) => c.type))}::text[], ${p((r) => r.contacts.map((c) => c.mode))}::text[]) as contact(id, type, mode)
)`,
  },
  {
    present: (rows) => rows.folderIds.length > 0,
    text: (p) => `folders as (
  insert into resources_folders (folder_id, res_id)
  select folder.id, record.res_id from record, unnest(${p((r) => r.folderIds)}::integer[]) as folder(id)
)`,
  },
  {
    present: (rows) => rows.tagIds.length > 0,
    text: (p) => `tags as (
  insert into resources_tags (res_id, tag_id)
  select record.res_id, tag.id from record, unnest(${p((r) => r.tagIds)}::integer[]) as tag(id)
)`,
  },
  {
    present: (rows) => rows.followerId !== null,
    text: (p) => `follower as (
  insert into users_followed_resources (user_id, res_id)
  select ${p((r) => r.followerId)}::integer, record.res_id from record
)`,
  },
  {
    present: (rows) => rows.deposit !== null,
    text: (p) => `archive as (
  insert into journal_archives (archive_id, safe, res_id, created_at)
  select ${p((r) => r.deposit?.archive.archive_id)}::text, ${p((r) => r.deposit?.archive.safe)}::text, record.res_id, coalesce(${p((r) => r.deposit?.archive.created_at ?? null)}::timestamptz, now())
  from record
), deposit as (
  insert into journal_pending (${PENDING_COLUMNS.join(', ')})
  select ${PENDING_COLUMNS.map((c) => `${p((r) => r.deposit?.pending[c])}::${JOURNAL_COLUMN_TYPES[c]}`).join(', ')}
  from record
)`,
  },
]

interface InsertShape {
  readonly sql: string
  readonly values: readonly ParameterValue[]
}

/**
 * Every row of a create in ONE statement of data-modifying CTEs, which PostgreSQL runs atomically on its
 * own: the record, its creation history row, the rows hanging off it (diffusion list, contacts, folders,
 * tags, follower) and its journal deposit (archive and pending event). Lists travel as arrays expanded by
 * `unnest`. A part the create has no rows for is left out of the text, since every part costs its execution
 * (the target table and its indexes opened) even when it inserts nothing: a create sends the constant text
 * of its shape, prepared once per connection, never rebuilt. Foreign keys are checked at the end of the
 * statement, so the order of the parts does not matter.
 */
function insertText(present: (index: number) => boolean): InsertShape {
  const values: ParameterValue[] = []
  const parameter = (value: ParameterValue) => {
    values.push(value)
    return `$${values.length}`
  }
  const parts = INSERT_PARTS.filter((_, index) => present(index)).map((part) => part.text(parameter))
  return { sql: `with ${parts.join(', ')}\nselect res_id from record`, values }
}

const insertShape = statementShapes(INSERT_PARTS, insertText)

/** The create statement of `rows`: the constant text of its shape, its values as parameters. */
export function insertRecordQuery(rows: RecordRows): CompiledQuery<{ res_id: number | string }> {
  const shape = insertShape((part) => part.present(rows))
  return CompiledQuery.raw(
    shape.sql,
    shape.values.map((value) => value(rows)),
  )
}

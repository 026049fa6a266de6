import { CompiledQuery } from 'kysely'
import type { JournalPendingTable, ResLetterboxTable } from '../database/schema.js'
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
  readonly archive: { readonly archive_id: string; readonly safe: string; readonly created_at?: Date | string | undefined }
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

/** Numbers the statement's parameters by name, in the order they are declared. */
function parameterSlots<const N extends string>(names: readonly N[]): Record<N, string> {
  return Object.fromEntries(names.map((name, index) => [name, `$${index + 1}`])) as Record<N, string>
}

const SCALARS = ['resId', 'historyUser', 'historyDate', 'historyInfo', 'diffusionIds', 'diffusionTypes', 'diffusionModes', 'contactIds', 'contactTypes', 'contactModes', 'folderIds', 'tagIds', 'followerId', 'archiveId', 'archiveSafe', 'archiveCreatedAt'] as const
const PARAMETER_NAMES = [...SCALARS, ...RECORD_COLUMNS.map((c) => `record.${c}` as const), ...PENDING_COLUMNS.map((c) => `pending.${c}` as const)]
const $ = parameterSlots(PARAMETER_NAMES)

/** SQL casts of the columns whose parameters PostgreSQL cannot type from an `insert … select` alone. */
const PENDING_CASTS: Readonly<Record<PendingColumn, string>> = {
  safe: 'text',
  event_id: 'text',
  event_type: 'text',
  timestamp: 'timestamptz',
  instance_name: 'text',
  org_reg_number: 'text',
  org_unit_reg_number: 'text',
  account_id: 'text',
  account_name: 'text',
  object_class: 'text',
  object_id: 'text',
  operation_result: 'boolean',
  description: 'text',
  info: 'jsonb',
}

/**
 * Every row of a create in ONE statement of data-modifying CTEs, which PostgreSQL runs atomically on its
 * own: the record, its creation history row, the rows hanging off it (diffusion list, contacts, folders,
 * tags, follower) and its journal deposit (archive and pending event). Lists travel as arrays expanded by
 * `unnest`, absent parts as empty arrays or nulls, so every create sends this very text: parsed and planned
 * once per connection (prepared statement), never rebuilt. Foreign keys are checked at the end of the
 * statement, so the order of the parts does not matter.
 */
const INSERT_RECORD_SQL = `with record as (
  insert into res_letterbox (res_id, ${RECORD_COLUMNS.join(', ')})
  values (coalesce(${$.resId}::bigint, ${NEXT_RES_ID_SQL}), ${RECORD_COLUMNS.map((c) => (c === 'integrations' ? `coalesce(${$[`record.${c}`]}::jsonb, '{}')` : $[`record.${c}`])).join(', ')})
  returning res_id
), creation as (
  insert into history (table_name, record_id, event_type, user_id, event_date, info, id_module, remote_ip, event_id)
  select 'res_letterbox', record.res_id::text, 'ADD', ${$.historyUser}::integer, ${$.historyDate}::timestamptz, ${$.historyInfo}::text, 'resource', null, 'resourceCreation'
  from record
), diffusion as (
  insert into listinstance (res_id, sequence, item_id, item_type, item_mode, added_by_user, difflist_type)
  select record.res_id, 0, item.id, item.type, item.mode, ${$.historyUser}::integer, 'entity_id'
  from record, unnest(${$.diffusionIds}::integer[], ${$.diffusionTypes}::text[], ${$.diffusionModes}::text[]) as item(id, type, mode)
), contacts as (
  insert into resource_contacts (res_id, item_id, type, mode)
  select record.res_id, contact.id, contact.type, contact.mode
  from record, unnest(${$.contactIds}::integer[], ${$.contactTypes}::text[], ${$.contactModes}::text[]) as contact(id, type, mode)
), folders as (
  insert into resources_folders (folder_id, res_id)
  select folder.id, record.res_id from record, unnest(${$.folderIds}::integer[]) as folder(id)
), tags as (
  insert into resources_tags (res_id, tag_id)
  select record.res_id, tag.id from record, unnest(${$.tagIds}::integer[]) as tag(id)
), follower as (
  insert into users_followed_resources (user_id, res_id)
  select ${$.followerId}::integer, record.res_id from record where ${$.followerId}::integer is not null
), archive as (
  insert into journal_archives (archive_id, safe, res_id, created_at)
  select ${$.archiveId}::text, ${$.archiveSafe}::text, record.res_id, coalesce(${$.archiveCreatedAt}::timestamptz, now())
  from record where ${$.archiveId}::text is not null
), deposit as (
  insert into journal_pending (${PENDING_COLUMNS.join(', ')})
  select ${PENDING_COLUMNS.map((c) => `${$[`pending.${c}`]}::${PENDING_CASTS[c]}`).join(', ')}
  from record where ${$.archiveId}::text is not null
)
select res_id from record`

/** The create statement with `rows` as its parameters (see INSERT_RECORD_SQL). */
export function insertRecordQuery(rows: RecordRows): CompiledQuery<{ res_id: number | string }> {
  const { deposit } = rows
  const scalars: Readonly<Record<(typeof SCALARS)[number], unknown>> = {
    resId: rows.resId,
    historyUser: rows.history.userId,
    historyDate: rows.history.date,
    historyInfo: rows.history.info,
    diffusionIds: rows.diffusion.map((item) => item.id),
    diffusionTypes: rows.diffusion.map((item) => item.type),
    diffusionModes: rows.diffusion.map((item) => item.mode),
    contactIds: rows.contacts.map((contact) => contact.id),
    contactTypes: rows.contacts.map((contact) => contact.type),
    contactModes: rows.contacts.map((contact) => contact.mode),
    folderIds: rows.folderIds,
    tagIds: rows.tagIds,
    followerId: rows.followerId,
    archiveId: deposit?.archive.archive_id ?? null,
    archiveSafe: deposit?.archive.safe ?? null,
    archiveCreatedAt: deposit?.archive.created_at ?? null,
  }
  // In PARAMETER_NAMES order: the scalars, the record's columns, the pending event's columns.
  const parameters = [
    ...SCALARS.map((name) => scalars[name]),
    ...RECORD_COLUMNS.map((column) => rows.record[column]),
    ...PENDING_COLUMNS.map((column) => (deposit === null ? null : deposit.pending[column])),
  ]
  return CompiledQuery.raw(INSERT_RECORD_SQL, parameters)
}

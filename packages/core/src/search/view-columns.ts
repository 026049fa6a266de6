/**
 * The columns of the view `res_view_letterbox` that a search may name, with their SQL types.
 * This table is the allow-list of the clause language: a name that is not here is refused.
 * The storage migration creates the view with exactly these columns.
 */

/** The SQL type families of the view columns (timestamp is timestamptz, json is jsonb). */
export type ViewColumnType = 'bigint' | 'integer' | 'text' | 'timestamp' | 'json' | 'boolean'

const BIGINT = ['res_id', 'type_id', 'filesize', 'work_batch'] as const
const INTEGER = [
  'typist',
  'dest_user',
  'locker_user_id',
  'doctypes_first_level_id',
  'doctypes_second_level_id',
] as const
const TEXT = [
  'policy_id',
  'cycle_id',
  'format',
  'docserver_id',
  'path',
  'filename',
  'fingerprint',
  'status',
  'barcode',
  'initiator',
  'destination',
  'confidentiality',
  'category_id',
  'alt_identifier',
  'flag_alarm1',
  'flag_alarm2',
  'subject',
  'priority',
  'type_label',
  'doctypes_first_level_label',
  'doctype_first_level_style',
  'doctypes_second_level_label',
  'doctype_second_level_style',
  'entity_label',
  'entitytype',
] as const
const TIMESTAMP = [
  'creation_date',
  'modification_date',
  'doc_date',
  'departure_date',
  'opinion_limit_date',
  'admission_date',
  'process_limit_date',
  'closing_date',
  'alarm1_date',
  'alarm2_date',
  'locker_time',
] as const
const JSON_COLUMNS = ['external_id', 'custom_fields'] as const
const BOOLEAN = ['retention_frozen', 'binding'] as const

/** The name of a column of `res_view_letterbox` (lower case, as in the view). */
export type ViewColumnName =
  | (typeof BIGINT)[number]
  | (typeof INTEGER)[number]
  | (typeof TEXT)[number]
  | (typeof TIMESTAMP)[number]
  | (typeof JSON_COLUMNS)[number]
  | (typeof BOOLEAN)[number]

/** Every view column in the order `select *` returns them. */
export const VIEW_COLUMN_NAMES: readonly ViewColumnName[] = Object.freeze([
  ...BIGINT,
  ...INTEGER,
  ...TEXT,
  ...TIMESTAMP,
  ...JSON_COLUMNS,
  ...BOOLEAN,
])

function typed<T extends ViewColumnType>(names: readonly ViewColumnName[], type: T): [ViewColumnName, T][] {
  return names.map((name) => [name, type])
}

/** The catalogue of `res_view_letterbox`: column name to SQL type. */
export const VIEW_COLUMNS: ReadonlyMap<ViewColumnName, ViewColumnType> = new Map<ViewColumnName, ViewColumnType>([
  ...typed(BIGINT, 'bigint'),
  ...typed(INTEGER, 'integer'),
  ...typed(TEXT, 'text'),
  ...typed(TIMESTAMP, 'timestamp'),
  ...typed(JSON_COLUMNS, 'json'),
  ...typed(BOOLEAN, 'boolean'),
])

/** The name of the view searches read from. */
export const SEARCH_VIEW_NAME = 'res_view_letterbox'

/** The catalogue name of `name` (matched case-insensitively), or undefined when the view has no such column. */
export function lookupViewColumn(name: string): ViewColumnName | undefined {
  const lower = name.toLowerCase()
  return VIEW_COLUMNS.has(lower as ViewColumnName) ? (lower as ViewColumnName) : undefined
}

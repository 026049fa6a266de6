import type { Actor } from '@mailroom/core'
import { type Kysely, sql } from 'kysely'
import type { Database } from '../database/schema.js'

/** What the list's query reads of each row (the record's details, then the list's own columns). */
export interface RowFacts {
  res_id: string | number
  alt_identifier: string | null
  barcode: string | null
  subject: string | null
  confidentiality: string | null
  label_status: string | null
  img_filename: string | null
  priority_label: string | null
  priority_color: string | null
  has_document: boolean
  followed: boolean
  in_shipping: boolean
  in_signature_book: boolean
  retention_frozen: boolean | null
  binding: boolean | null
  type_label: string | null
  count_notes: number | string
  count_attachments: number | string
  correspondents: { mode: string; label: string | null }[] | string
  category_id: string | null
  custom_fields: unknown
  locked: boolean
  locker_name: string | null
  creation_text: string | null
  process_limit_text: string | null
  modification_text: string | null
  opinion_limit_text: string | null
  closing_text: string | null
}

/** A display item's value, and for a custom field its label (20.10's `displayLabel`). */
export interface DisplayValue {
  readonly displayLabel?: string
  readonly displayValue: unknown
}

/** A folder a row shows: one the reader owns, or shared with one of their entities or with every entity. */
export interface RowFolder {
  readonly id: number
  readonly label: string
}

interface CircuitStep {
  res_id: string | number
  firstname: string | null
  lastname: string | null
  requested_signature: boolean
  process_date: Date | string | null
}

/** 20.10's `TextFormatModel::formatDate`: `d-m-Y H:i`, '' for no date (the server's time; here UTC). */
function formatDate(value: Date | string | null): string {
  if (value === null) return ''
  const d = new Date(value)
  const two = (n: number) => String(n).padStart(2, '0')
  return `${two(d.getUTCDate())}-${two(d.getUTCMonth() + 1)}-${d.getUTCFullYear()} ${two(d.getUTCHours())}:${two(d.getUTCMinutes())}`
}

const label = (firstname: string | null, lastname: string | null) => `${firstname ?? ''} ${lastname ?? ''}`

function correspondents(row: RowFacts, mode: string): string[] {
  const list = typeof row.correspondents === 'string' ? JSON.parse(row.correspondents) : row.correspondents
  return (list as { mode: string; label: string | null }[]).filter((c) => c.mode === mode).map((c) => c.label ?? '')
}

/**
 * The value of each display item of `names` for each row, as 20.10's getFormattedResources computes it; items it
 * does not know are left out (20.10 drops them). Registered mail is not kept by Mailroom: its items show ''.
 * Also each row's folders (20.10's getFolders), which every row carries.
 */
export async function displayValuesOf(
  db: Kysely<Database>,
  reader: Actor,
  rows: readonly RowFacts[],
  names: readonly string[],
): Promise<{ byRow: Record<string, DisplayValue>[]; folders: Map<number, RowFolder[]> }> {
  const resIds = rows.map((row) => Number(row.res_id))
  const wanted = new Set(names)
  const [assignees, circuits, opinions, customFields, folders] = await Promise.all([
    wanted.has('getAssignee') ? assigneesOf(db, resIds) : new Map<number, string>(),
    wanted.has('getVisaWorkflow') || wanted.has('getSignatories')
      ? circuitsOf(db, resIds)
      : new Map<number, CircuitStep[]>(),
    wanted.has('getParallelOpinionsNumber') ? opinionsOf(db, resIds) : new Map<number, number>(),
    names.some((n) => n.startsWith('indexingCustomField_')) ? customFieldsOf(db) : new Map<string, CustomField>(),
    foldersOf(db, reader, resIds),
  ])
  const byRow = rows.map((row) => {
    const resId = Number(row.res_id)
    const steps = circuits.get(resId) ?? []
    const values: Record<string, unknown> = {}
    for (const name of names) {
      switch (name) {
        case 'getPriority':
          values[name] = row.priority_label
          break
        case 'getCategory':
          values[name] = row.category_id
          break
        case 'getDoctype':
          values[name] = row.type_label
          break
        case 'getAssignee':
          values[name] = assignees.get(resId) ?? ''
          break
        case 'getSenders':
          values[name] = correspondents(row, 'sender')
          break
        case 'getRecipients':
          values[name] = correspondents(row, 'recipient')
          break
        case 'getVisaWorkflow': {
          let currentFound = false
          values[name] = steps.map((step) => {
            const current = step.process_date === null && !currentFound
            if (current) currentFound = true
            return {
              user: label(step.firstname, step.lastname),
              mode: step.requested_signature ? 'sign' : 'visa',
              date: formatDate(step.process_date),
              current,
            }
          })
          break
        }
        case 'getSignatories':
          values[name] = steps
            .filter((step) => step.requested_signature)
            .map((step) => ({ user: label(step.firstname, step.lastname), date: formatDate(step.process_date) }))
          break
        case 'getParallelOpinionsNumber':
          values[name] = opinions.get(resId) ?? 0
          break
        case 'getCreationAndProcessLimitDates':
          values[name] = { creationDate: row.creation_text, processLimitDate: row.process_limit_text }
          break
        case 'getCreationDate':
          values[name] = row.creation_text
          break
        case 'getProcessLimitDate':
          values[name] = row.process_limit_text
          break
        case 'getModificationDate':
          values[name] = row.modification_text
          break
        case 'getOpinionLimitDate':
          values[name] = row.opinion_limit_text
          break
        case 'getResId':
          values[name] = resId
          break
        case 'getBarcode':
          values[name] = row.barcode
          break
        case 'getRegisteredMailRecipient':
        case 'getRegisteredMailReference':
        case 'getRegisteredMailIssuingSite':
          values[name] = ''
          break
        default:
          if (name.startsWith('indexingCustomField_')) {
            values[name] = customFieldValue(row, name, customFields)
            continue
          }
      }
      if (Object.hasOwn(values, name)) values[name] = { displayValue: values[name] }
    }
    return values as Record<string, DisplayValue>
  })
  return { byRow, folders }
}

interface CustomField {
  readonly label: string
  readonly type: string
}

/** A custom field's value for a row: its text, a list joined by commas, a date as `d-m-Y`, '' when none. */
function customFieldValue(row: RowFacts, name: string, fields: Map<string, CustomField>): unknown {
  const id = name.split('_')[1] ?? ''
  const stored = typeof row.custom_fields === 'string' ? JSON.parse(row.custom_fields) : row.custom_fields
  const value = (stored as Record<string, unknown> | null)?.[id]
  const field = fields.get(id)
  let displayValue: unknown = value ?? ''
  if (field?.type === 'checkbox' && Array.isArray(value) && value.length > 0) displayValue = value.join(', ')
  else if (field?.type === 'date' && typeof value === 'string' && value !== '')
    displayValue = formatDate(value).slice(0, 10)
  return { displayLabel: field?.label ?? '', displayValue }
}

async function customFieldsOf(db: Kysely<Database>): Promise<Map<string, CustomField>> {
  const rows = await db.selectFrom('custom_fields').select(['id', 'label', 'type']).execute()
  return new Map(rows.map((row) => [String(row.id), { label: row.label, type: row.type }]))
}

/** 20.10's getAssignee: the `dest` user of the diffusion list, then the destination's label in brackets. */
async function assigneesOf(db: Kysely<Database>, resIds: readonly number[]): Promise<Map<number, string>> {
  const { rows } = await sql<{ res_id: string | number; assignee: string }>`select r.res_id,
      trim(concat_ws(' ', (select u.firstname || ' ' || u.lastname from listinstance li join users u on u.id = li.item_id
          where li.res_id = r.res_id and li.difflist_type = 'entity_id' and li.item_mode = 'dest'
          order by li.listinstance_id limit 1),
        (select '(' || e.entity_label || ')' from entities e where e.entity_id = r.destination))) as assignee
    from res_letterbox r where r.res_id = any(${sql.val([...resIds])}::bigint[])`.execute(db)
  return new Map(rows.map((row) => [Number(row.res_id), row.assignee]))
}

async function circuitsOf(db: Kysely<Database>, resIds: readonly number[]): Promise<Map<number, CircuitStep[]>> {
  const rows = await db
    .selectFrom('listinstance as li')
    .leftJoin('users as u', 'u.id', 'li.item_id')
    .select(['li.res_id', 'u.firstname', 'u.lastname', 'li.requested_signature', 'li.process_date'])
    .where('li.res_id', 'in', resIds)
    .where('li.difflist_type', '=', 'VISA_CIRCUIT')
    .orderBy('li.listinstance_id')
    .execute()
  const byRecord = new Map<number, CircuitStep[]>()
  for (const row of rows) byRecord.set(Number(row.res_id), [...(byRecord.get(Number(row.res_id)) ?? []), row])
  return byRecord
}

async function opinionsOf(db: Kysely<Database>, resIds: readonly number[]): Promise<Map<number, number>> {
  const { rows } = await sql<{ identifier: string | number; n: number }>`select identifier, count(*)::int as n
    from notes where identifier = any(${sql.val([...resIds])}::bigint[]) and note_text like '[avis%'
    group by identifier`.execute(db)
  return new Map(rows.map((row) => [Number(row.identifier), row.n]))
}

async function foldersOf(
  db: Kysely<Database>,
  reader: Actor,
  resIds: readonly number[],
): Promise<Map<number, RowFolder[]>> {
  const entityIds = reader.entities.map((e) => e.id)
  const { rows } = await sql<{
    res_id: string | number
    id: number
    label: string
  }>`select distinct rf.res_id, f.id, f.label
    from resources_folders rf join folders f on f.id = rf.folder_id
    where rf.res_id = any(${sql.val([...resIds])}::bigint[])
      and (f.user_id = ${reader.id} or exists (select 1 from entities_folders ef where ef.folder_id = f.id
        and (ef.keyword = 'ALL_ENTITIES' or ef.entity_id = any(${sql.val(entityIds)}::int[]))))
    order by f.id`.execute(db)
  const byRecord = new Map<number, RowFolder[]>()
  for (const row of rows)
    byRecord.set(Number(row.res_id), [...(byRecord.get(Number(row.res_id)) ?? []), { id: row.id, label: row.label }])
  return byRecord
}

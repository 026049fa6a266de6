import { fail } from '../errors/domain-error.js'
import { databaseIdOf } from '../request-values/database-id.js'
import { ExternalIdSchema } from '../request-values/flat-values.js'
import { isMissing, isPlainObject, readInteger } from './body-values.js'
import type { EarlierReferenceFacts, EarlierReferenceQuery } from './ports.js'

/**
 * True for a body of the earlier create form (interface "Earlier creation variant"): it names `type_id`
 * or `category_id` and no `modelId`.
 */
export function isEarlierVariant(body: Readonly<Record<string, unknown>>): boolean {
  return body.modelId === undefined && (body.type_id !== undefined || body.category_id !== undefined)
}

const REQUIRED = ['status', 'format', 'encodedFile', 'type_id', 'category_id'] as const

/** record-table columns of the earlier form → fields of the current form, where the meaning is the same. */
const RENAMED_COLUMNS: Readonly<Record<string, string>> = {
  subject: 'subject',
  doc_date: 'documentDate',
  admission_date: 'arrivalDate',
  departure_date: 'departureDate',
  process_limit_date: 'processLimitDate',
  barcode: 'barcode',
  confidentiality: 'confidentiality',
  custom_fields: 'customFields',
}

/**
 * Checks what the earlier form requires and names what must be looked up to translate it: the category
 * (→ its indexing model) and the entity codes of `destination` / `initiator`.
 */
export function earlierReferences(body: Readonly<Record<string, unknown>>): EarlierReferenceQuery {
  if (REQUIRED.some((field) => isMissing(body[field]))) fail('CREATE_DATA_EMPTY')
  if (databaseIdOf(body.type_id) === null) fail('CREATE_NOT_INTEGER', { field: 'type_id' })
  if (typeof body.category_id !== 'string') fail('CREATE_NOT_STRING', { field: 'category_id' })
  const entityCodes = [body.destination, body.initiator].filter(
    (v): v is string => typeof v === 'string' && databaseIdOf(v) === null && v.trim() !== '',
  )
  return { category: body.category_id.trim(), entityCodes, priorityOrder: readInteger(body.priority) }
}

/**
 * Rewrites an earlier-form body as a current one, so both forms run the same use case: `category_id`
 * becomes the model of that category, `type_id` the doctype, entity codes their integer ids, record-table
 * columns their current names, contact columns senders and recipients. A client `alt_identifier` is
 * dropped (the reference discards it too); `typist` is kept only when it is an integer id or a login. A
 * numeric `priority` names the priority of that `order`.
 */
export function translateEarlierBody(
  body: Readonly<Record<string, unknown>>,
  facts: EarlierReferenceFacts,
): Record<string, unknown> {
  if (facts.modelId === null) fail('CREATE_NOT_FOUND', { field: 'category_id' })
  const current: Record<string, unknown> = {
    modelId: facts.modelId,
    doctype: body.type_id,
    status: body.status,
    format: body.format,
    encodedFile: body.encodedFile,
  }
  if (body.chrono !== undefined) current.chrono = body.chrono
  if (isPlainObject(body.externalId))
    current.externalId = ExternalIdSchema.safeParse(body.externalId).success
      ? body.externalId
      : fail('EXTERNAL_ID_NOT_FLAT')
  for (const [column, field] of Object.entries(RENAMED_COLUMNS))
    if (body[column] !== undefined && body[column] !== null) current[field] = body[column]
  for (const field of ['destination', 'initiator'] as const) {
    const value = body[field]
    if (value === undefined || value === null || value === '') continue
    if (databaseIdOf(value) !== null) current[field] = value
    else if (typeof value === 'string')
      current[field] = facts.entityIdsByCode.get(value.trim()) ?? fail('CREATE_NOT_FOUND', { field })
    else current[field] = value
  }
  const priority = earlierPriority(body.priority, facts)
  if (priority !== null) current.priority = priority
  if (typeof body.typist === 'string' || typeof body.typist === 'number') current.typist = body.typist
  const sender = databaseIdOf(body.exp_contact_id)
  if (sender !== null) current.senders = [{ id: sender, type: 'contact' }]
  const recipient = databaseIdOf(body.dest_contact_id)
  if (recipient !== null) current.recipients = [{ id: recipient, type: 'contact' }]
  return current
}

/**
 * The priority id an earlier-form `priority` stands for: a number or numeric string names the priority whose
 * `order` it is; one that matches no order is passed on as an id, so the current form's check answers
 * `Body priority does not exist` (or accepts an installation's own numeric id). Anything else is kept as sent.
 */
function earlierPriority(value: unknown, facts: EarlierReferenceFacts): string | null {
  if (value === undefined || value === null || value === '') return null
  if (readInteger(value) !== null && facts.priorityIdByOrder !== null) return facts.priorityIdByOrder
  return String(value)
}

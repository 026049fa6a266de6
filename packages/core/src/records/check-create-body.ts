import { type Actor, isRoot } from '../actors/actor.js'
import { checkFormatAllowed, normaliseFormat } from '../content/formats.js'
import { fail } from '../errors/domain-error.js'
import { databaseIdOf } from '../request-values/database-id.js'
import { CustomFieldValueSchema, ExternalIdSchema } from '../request-values/flat-values.js'
import { isEmptyValue, isPlainObject, readBoolean, readList } from './body-values.js'
import { indexingEntityCodes } from './indexing-entities.js'
import type { DiffusionItem, NewRecord, NewRecordFile, RecordContact, RecordIntegrations } from './new-record.js'
import { isoDay, parseLooseDate, startOfUtcDay } from './parse-loose-date.js'
import type { CustomFieldFacts, RecordReferenceFacts } from './ports.js'

/** The file part of a body after decoding and sniffing (done before the checks, which are synchronous). */
export interface InspectedFile {
  /** `format` as sent (any type: the check reports a bad one at its place in the order). */
  readonly format: unknown
  /** Decoded bytes; null when `encodedFile` is not valid base64. */
  readonly bytes: Uint8Array | null
  /** MIME type sniffed from the bytes; null when there are no bytes. */
  readonly mimeType: string | null
}

/** Everything the ordered checks read. */
export interface CreateCheckInput {
  readonly actor: Actor
  readonly body: Readonly<Record<string, unknown>>
  readonly facts: RecordReferenceFacts
  /** Null when the body has no `encodedFile`. */
  readonly file: InspectedFile | null
  readonly now: Date
}

const CONTACT_TYPES = new Set(['contact', 'user', 'entity'])
const DIFFUSION_TYPES = new Set(['user', 'entity'])

/**
 * Runs the creation checks in the reference's order (reference §2.1 step 3) and returns the record to
 * store. Presence of the required parameters and the actor's right to index are checked before.
 * Differences from the reference, on purpose: `typist` must be an existing user (the reference stored any
 * value); custom-field values are checked for every user, not only for non-web-service ones; a diffusion
 * item is looked up by its `type` (the reference looked `dest` items up among users whatever their type);
 * `followed` and the `integrations` flags must read as booleans (PHP's empty() made the string "false" true).
 */
export function checkCreateBody({ actor, body, facts, file, now }: CreateCheckInput): NewRecord {
  const doctype = optionalId(body, 'doctype')
  const modelId = databaseIdOf(body.modelId) ?? fail('CREATE_NOT_INTEGER', { field: 'modelId' })
  const status =
    typeof body.status === 'string' && body.status.trim() !== ''
      ? body.status.trim()
      : fail('CREATE_NOT_STRING', { field: 'status' })

  if (doctype !== null && !facts.doctypeExists) fail('CREATE_NOT_FOUND', { field: 'doctype' })
  const model = facts.model ?? fail('CREATE_NOT_FOUND', { field: 'modelId' })
  if (!model.enabled) fail('MODEL_DISABLED')
  if (model.master !== null) fail('MODEL_NOT_PUBLIC')
  if (model.mandatoryFile && file === null) fail('MODEL_FILE_MANDATORY')

  const storedFile = checkFile(file)
  const customFieldEntries = checkCustomFieldIds(body.customFields, facts)
  const folders = checkIdList(body, 'folders', facts.visibleFolders, 'FOLDERS_NOT_FOUND')
  const tags = checkIdList(body, 'tags', facts.tags, 'TAGS_NOT_FOUND')
  const senders = checkContacts(body, 'senders', facts)
  const recipients = checkContacts(body, 'recipients', facts)
  const diffusionList = checkDiffusionList(body, facts)

  if (actor.mode !== 'rest') checkMandatoryFields(body, model.mandatoryFields)
  const customFields = checkCustomFieldValues(customFieldEntries, facts.customFields)
  const allowed = isRoot(actor) ? null : indexingEntityCodes(actor, facts.entityTree)
  const initiator = checkEntity(
    body,
    'initiator',
    facts,
    (code) => allowed === null || allowed.has(code) || actor.entities.some((e) => e.entityId === code),
    'INITIATOR_NOT_ALLOWED',
  )
  const destination = checkEntity(
    body,
    'destination',
    facts,
    (code) => allowed === null || allowed.has(code),
    'DESTINATION_NOT_ALLOWED',
  )

  const dates = checkDates(body, model.category, now)
  const priority = checkPriority(body, facts)
  if (!facts.statusExists) fail('CREATE_NOT_FOUND', { field: 'status' })

  return {
    modelId,
    category: model.category,
    doctype,
    subject: optionalText(body, 'subject'),
    chrono: flag(body, 'chrono'),
    typist: checkTypist(body, actor, facts),
    status,
    destination,
    initiator,
    confidentiality: flag(body, 'confidentiality'),
    ...dates,
    priority,
    barcode: optionalText(body, 'barcode'),
    externalId: checkExternalId(body.externalId),
    customFields,
    senders,
    recipients,
    diffusionList,
    destUser: diffusionList.find((item) => item.mode === 'dest' && item.type === 'user')?.id ?? null,
    folders,
    tags,
    file: storedFile,
    followed: flag(body, 'followed'),
    integrations: checkIntegrations(body.integrations, storedFile),
  }
}

function optionalId(body: Readonly<Record<string, unknown>>, field: string): number | null {
  if (isEmptyValue(body[field])) return null
  return databaseIdOf(body[field]) ?? fail('CREATE_NOT_INTEGER', { field })
}

function optionalText(body: Readonly<Record<string, unknown>>, field: string): string | null {
  const value = body[field]
  if (value === undefined || value === null || value === '') return null
  if (typeof value === 'number') return String(value)
  return typeof value === 'string' ? value : fail('CREATE_NOT_TEXT', { field })
}

function flag(body: Readonly<Record<string, unknown>>, field: string): boolean {
  return readBoolean(body[field]) ?? fail('CREATE_NOT_BOOLEAN', { field })
}

/**
 * `integrations` as booleans, whatever form the client gave them (true, "true", 1, …); keys other than the
 * two the reference knows are dropped. The reference honours them only when a file is sent, so without one
 * they are not even read. Not sent (or empty) writes two falses, as 20.10's `StoreController` does: its
 * letter page prints the column back (`[]` for an empty one, the two flags for a record it created).
 */
function checkIntegrations(value: unknown, file: NewRecordFile | null): RecordIntegrations {
  if (file === null || isEmptyValue(value)) return { inSignatureBook: false, inShipping: false }
  if (!isPlainObject(value)) fail('CREATE_NOT_OBJECT', { field: 'integrations' })
  const read = (key: keyof RecordIntegrations) =>
    readBoolean(value[key]) ?? fail('CREATE_NOT_BOOLEAN', { field: `integrations[${key}]` })
  return { inSignatureBook: read('inSignatureBook'), inShipping: read('inShipping') }
}

function checkFile(file: InspectedFile | null): NewRecordFile | null {
  if (file === null) return null
  if (typeof file.format !== 'string' || file.format.trim() === '') fail('FORMAT_EMPTY')
  if (file.bytes === null || file.mimeType === null) fail('ENCODED_FILE_INVALID')
  checkFormatAllowed(file.format, file.mimeType)
  return { format: normaliseFormat(file.format), bytes: file.bytes }
}

/** `customFields` keyed by custom field id; every id must exist. A JSON list is keyed by index, as PHP does. */
function checkCustomFieldIds(value: unknown, facts: RecordReferenceFacts): [number, unknown][] {
  if (isEmptyValue(value)) return []
  if (!isPlainObject(value) && !Array.isArray(value)) fail('CREATE_NOT_ARRAY', { field: 'customFields' })
  const entries = Object.entries(value).map(([key, v]): [number, unknown] => [databaseIdOf(key) ?? 0, v])
  if (entries.some(([id]) => !facts.customFields.has(id))) fail('CUSTOM_FIELDS_NOT_FOUND')
  return entries
}

function checkIdList(
  body: Readonly<Record<string, unknown>>,
  field: 'folders' | 'tags',
  known: ReadonlySet<number>,
  missing: 'FOLDERS_NOT_FOUND' | 'TAGS_NOT_FOUND',
): number[] {
  if (isEmptyValue(body[field])) return []
  const list = readList(body[field]) ?? fail('CREATE_NOT_ARRAY', { field })
  const ids = list.map((item) => databaseIdOf(item) ?? 0)
  if (ids.some((id) => !known.has(id))) fail(missing)
  return [...new Set(ids)]
}

function checkContacts(
  body: Readonly<Record<string, unknown>>,
  field: 'senders' | 'recipients',
  facts: RecordReferenceFacts,
): RecordContact[] {
  if (isEmptyValue(body[field])) return []
  const list = readList(body[field]) ?? fail('CREATE_NOT_ARRAY', { field })
  return list.map((item, index) => {
    if (!isPlainObject(item)) fail('LIST_ITEM_NOT_OBJECT', { field, index })
    const id = databaseIdOf(item.id) ?? fail('LIST_ITEM_ID_INVALID', { field, index })
    const type =
      typeof item.type === 'string' && CONTACT_TYPES.has(item.type)
        ? (item.type as RecordContact['type'])
        : fail('LIST_ITEM_TYPE_INVALID', { field, index })
    const exists =
      type === 'contact' ? facts.contacts.has(id) : type === 'user' ? facts.users.has(id) : facts.entities.has(id)
    if (!exists) fail('LIST_ITEM_NOT_FOUND', { field, index })
    return { id, type }
  })
}

function checkDiffusionList(body: Readonly<Record<string, unknown>>, facts: RecordReferenceFacts): DiffusionItem[] {
  const field = 'diffusionList'
  if (isEmptyValue(body[field])) return []
  const list = readList(body[field]) ?? fail('CREATE_NOT_ARRAY', { field })
  let dests = 0
  const items = list.map((item, index): DiffusionItem => {
    if (!isPlainObject(item)) fail('LIST_ITEM_NOT_OBJECT', { field, index })
    const id = databaseIdOf(item.id) ?? fail('LIST_ITEM_ID_INVALID', { field, index })
    const type =
      typeof item.type === 'string' && DIFFUSION_TYPES.has(item.type)
        ? (item.type as DiffusionItem['type'])
        : fail('LIST_ITEM_TYPE_INVALID', { field, index })
    const mode =
      typeof item.mode === 'string' && item.mode.trim() !== '' && item.mode.length <= 50
        ? item.mode.trim()
        : fail('LIST_ITEM_MODE_INVALID', { field, index })
    if (mode === 'dest' && ++dests > 1) fail('DIFFUSION_MULTIPLE_DEST')
    if (!(type === 'user' ? facts.users.has(id) : facts.entities.has(id))) fail('LIST_ITEM_NOT_FOUND', { field, index })
    return { id, type, mode }
  })
  if (dests === 0) fail('DIFFUSION_NO_DEST')
  return items
}

/** Mandatory fields of the indexing model (reference: checked for non-web-service users only). */
function checkMandatoryFields(body: Readonly<Record<string, unknown>>, identifiers: readonly string[]): void {
  const customFields = isPlainObject(body.customFields) ? body.customFields : {}
  for (const identifier of identifiers) {
    const custom = /^indexingCustomField_(\d+)$/.exec(identifier)
    const value = custom ? customFields[custom[1] as string] : body[identifier]
    if (isEmptyValue(value)) fail('MODEL_FIELD_NOT_SET', { field: identifier })
  }
}

/** Checks each custom field value against its type and returns the values as stored (dates as YYYY-MM-DD). */
function checkCustomFieldValues(
  entries: readonly [number, unknown][],
  definitions: ReadonlyMap<number, CustomFieldFacts>,
): Record<string, unknown> {
  const stored: Record<string, unknown> = {}
  for (const [id, value] of entries) {
    const definition = definitions.get(id) as CustomFieldFacts
    const key = String(id)
    if (value === null || value === '') continue
    const allowed = definition.values.map(String)
    switch (definition.type) {
      case 'date': {
        const date = typeof value === 'string' ? parseLooseDate(value) : null
        stored[key] = date ? isoDay(date) : fail('CUSTOM_FIELD_NOT_DATE', { id: key })
        break
      }
      case 'integer': {
        const number =
          typeof value === 'number'
            ? value
            : typeof value === 'string' && value.trim() !== ''
              ? Number(value)
              : Number.NaN
        stored[key] = Number.isFinite(number) ? number : fail('CUSTOM_FIELD_NOT_NUMBER', { id: key })
        break
      }
      case 'select':
      case 'radio':
        stored[key] =
          typeof value === 'string' && allowed.includes(value) ? value : fail('CUSTOM_FIELD_WRONG_VALUE', { id: key })
        break
      case 'checkbox': {
        if (!Array.isArray(value)) fail('CUSTOM_FIELD_NOT_ARRAY', { id: key })
        if (value.some((v) => !allowed.includes(String(v)))) fail('CUSTOM_FIELD_WRONG_VALUE', { id: key })
        stored[key] = value.map(String)
        break
      }
      case 'string':
        stored[key] =
          typeof value === 'string'
            ? value
            : typeof value === 'number'
              ? String(value)
              : fail('CUSTOM_FIELD_NOT_STRING', { id: key })
        break
      default:
        // Types Mailroom does not know (banAutocomplete, contact, …) are kept as sent, if flat.
        stored[key] = CustomFieldValueSchema.safeParse(value).success
          ? value
          : fail('CUSTOM_FIELD_NOT_FLAT', { id: key })
    }
  }
  return stored
}

function checkEntity(
  body: Readonly<Record<string, unknown>>,
  field: 'initiator' | 'destination',
  facts: RecordReferenceFacts,
  mayIndexFor: (code: string) => boolean,
  refusal: 'INITIATOR_NOT_ALLOWED' | 'DESTINATION_NOT_ALLOWED',
): string | null {
  const id = optionalId(body, field)
  if (id === null) return null
  const entity = facts.entities.get(id) ?? fail('CREATE_NOT_FOUND', { field })
  if (!mayIndexFor(entity.entityId)) fail(refusal)
  return entity.entityId
}

type RecordDates = Pick<NewRecord, 'documentDate' | 'arrivalDate' | 'departureDate' | 'processLimitDate'>

/** Date rules of the reference (controlDates); "today" and "tomorrow" are UTC days. */
function checkDates(body: Readonly<Record<string, unknown>>, category: string, now: Date): RecordDates {
  const tomorrow = startOfUtcDay(now, 1)
  const documentDate = readDate(body, 'documentDate')
  if (documentDate && documentDate > tomorrow && category !== 'outgoing') fail('DOCUMENT_DATE_IN_FUTURE')
  const arrivalDate = readDate(body, 'arrivalDate')
  if (arrivalDate && arrivalDate > tomorrow) fail('DATE_OUT_OF_RANGE', { field: 'arrivalDate' })
  const departureDate = readDate(body, 'departureDate')
  if (departureDate && documentDate && departureDate < documentDate)
    fail('DATE_OUT_OF_RANGE', { field: 'departureDate' })
  const processLimitDate = readDate(body, 'processLimitDate')
  if (processLimitDate && processLimitDate < startOfUtcDay(now))
    fail('DATE_OUT_OF_RANGE', { field: 'processLimitDate' })
  return { documentDate, arrivalDate, departureDate, processLimitDate }
}

function readDate(body: Readonly<Record<string, unknown>>, field: string): Date | null {
  const value = body[field]
  if (value === undefined || value === null || value === '') return null
  return (typeof value === 'string' ? parseLooseDate(value) : null) ?? fail('DATE_INVALID', { field })
}

function checkPriority(body: Readonly<Record<string, unknown>>, facts: RecordReferenceFacts): string | null {
  const value = body.priority
  if (value === undefined || value === null || value === '') return null
  if (typeof value !== 'string') fail('CREATE_NOT_TEXT', { field: 'priority' })
  if (!facts.priorityExists) fail('CREATE_NOT_FOUND', { field: 'priority' })
  return value
}

/** The typist: the actor by default; otherwise an existing user, by integer id or by login (B1 falls back to logins). */
function checkTypist(body: Readonly<Record<string, unknown>>, actor: Actor, facts: RecordReferenceFacts): number {
  const value = body.typist
  if (isEmptyValue(value)) return actor.id
  const id = databaseIdOf(value)
  if (id !== null) return facts.users.has(id) ? id : fail('CREATE_NOT_FOUND', { field: 'typist' })
  if (typeof value !== 'string') fail('CREATE_NOT_INTEGER', { field: 'typist' })
  return facts.userIdsByLogin.get(value.trim().toLowerCase()) ?? fail('CREATE_NOT_FOUND', { field: 'typist' })
}

function checkExternalId(value: unknown): Record<string, unknown> {
  if (isEmptyValue(value)) return {}
  if (!isPlainObject(value)) fail('CREATE_NOT_OBJECT', { field: 'externalId' })
  return ExternalIdSchema.safeParse(value).success ? value : fail('EXTERNAL_ID_NOT_FLAT')
}

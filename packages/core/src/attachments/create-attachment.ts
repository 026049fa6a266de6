import type { Actor } from '../actors/actor.js'
import type { ContentReadMeta } from '../content/content-services.js'
import { checkFormatAllowed, normaliseFormat } from '../content/formats.js'
import type { MimeTypeSniffer } from '../content/ports.js'
import { fail } from '../errors/domain-error.js'
import type { AttachmentTypeDefinition } from '../organisation/organisation-schema.js'
import { decodeBase64 } from '../records/decode-base64.js'
import { parseLooseDate } from '../records/parse-loose-date.js'
import { databaseIdOf } from '../request-values/database-id.js'

/** Statuses a new attachment may have (20.10); the default is the first. */
export const NEW_ATTACHMENT_STATUSES = ['A_TRA', 'TRA', 'SEND_MASS'] as const

/** Statuses a signed response's origin may have (20.10). */
const SIGNED_ORIGIN_STATUSES = new Set(['A_TRA', 'TRA', 'SIGN', 'FRZ'])

/** Column widths of res_attachments that callers fill (20.10's), checked before anything is stored. */
export const ATTACHMENT_TEXT_LIMITS = { title: 255, chrono: 255, format: 50 } as const

/** The record an attachment is added to, once the caller's perimeter allowed it. */
export interface AttachmentMaster {
  readonly resId: number
  /** entity_id of its destination: the digital safe its files go to. */
  readonly destination: string | null
}

/** An attachment a new version names as its origin. */
export interface AttachmentOrigin {
  readonly resId: number
  readonly resIdMaster: number
  readonly status: string
  /** Set when the origin is itself a version (then it cannot be one's origin). */
  readonly originId: number | null
}

/** Everything checked: what storage writes (file, then the row, in one go). */
export interface NewAttachment {
  readonly master: AttachmentMaster
  readonly type: AttachmentTypeDefinition
  readonly title: string | null
  /** The chrono the caller gave; null: the type's chrono rule decides. */
  readonly chrono: string | null
  readonly status: string
  readonly origin: AttachmentOrigin | null
  readonly recipient: { readonly id: number; readonly type: 'user' | 'contact' } | null
  readonly validationDate: Date | null
  readonly effectiveDate: Date | null
  readonly typist: number
  /** Normalised extension (`pdf`). */
  readonly format: string
  readonly bytes: Uint8Array
}

/** What the create use case asks of storage, each call at its place in 20.10's order of checks. */
export interface AttachmentCreatePorts {
  readonly sniffer: MimeTypeSniffer
  /**
   * In one look-up: the record if it exists and is in the actor's perimeter (null otherwise: 20.10 does not tell
   * them apart), and the attachment type (null when unknown). The use case checks them in 20.10's order.
   */
  references(
    actor: Actor,
    resIdMaster: number,
    typeId: string,
  ): Promise<{ readonly master: AttachmentMaster | null; readonly type: AttachmentTypeDefinition | null }>
  origin(id: number): Promise<AttachmentOrigin | null>
  recipientExists(type: 'user' | 'contact', id: number): Promise<boolean>
  userExists(id: number): Promise<boolean>
  /** Stores the file and the row (and the journal deposit): all of it, or nothing. Answers the new id. */
  store(actor: Actor, attachment: NewAttachment, meta: ContentReadMeta): Promise<number>
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

const present = (value: unknown) => value !== undefined && value !== null && value !== ''

/** A date field: absent, or a date the record dates accept (20.10 takes whatever strtotime reads). */
function dateOf(fields: Record<string, unknown>, field: 'validationDate' | 'effectiveDate'): Date | null {
  const value = fields[field]
  if (!present(value)) return null
  const date = typeof value === 'string' ? parseLooseDate(value) : null
  if (date === null) fail('DATE_INVALID', { field })
  return date
}

/** A text field of 20.10's table: a string within its column (20.10 stores any scalar, or answers 500 past it). */
function textOf(fields: Record<string, unknown>, field: 'title' | 'chrono'): string | null {
  const value = fields[field]
  if (value === undefined || value === null) return null
  if (typeof value !== 'string') fail('CREATE_NOT_TEXT', { field })
  const max = ATTACHMENT_TEXT_LIMITS[field]
  if (value.length > max) fail('ATTACHMENT_LENGTH_INVALID', { field, max })
  if (value.includes('\u0000')) fail('NUL_CHARACTER')
  return value === '' ? null : value
}

/**
 * `POST /rest/attachments`: the checks of 20.10's AttachmentController::create in its order and with its
 * messages (NOTES.md §2), then Mailroom's checks of what 20.10 stores blindly or fails on with a 500 (title and
 * chrono must be strings within their columns), then the store. Nothing is written before every check passed.
 */
export async function createAttachment(
  ports: AttachmentCreatePorts,
  actor: Actor,
  body: unknown,
  meta: ContentReadMeta = {},
): Promise<number> {
  if (!isObject(body) || Object.keys(body).length === 0) fail('BODY_NOT_SET_OR_EMPTY')
  const fields = body
  if (typeof fields.encodedFile !== 'string' || fields.encodedFile === '') fail('ATTACHMENT_FILE_EMPTY')
  if (typeof fields.format !== 'string' || fields.format.trim() === '') fail('FORMAT_EMPTY')
  const resIdMaster = databaseIdOf(fields.resIdMaster, 'bigint')
  if (resIdMaster === null) fail('CREATE_NOT_INTEGER', { field: 'resIdMaster' })
  if (typeof fields.type !== 'string' || fields.type === '') fail('ATTACHMENT_TYPE_EMPTY')
  const status = present(fields.status) ? fields.status : NEW_ATTACHMENT_STATUSES[0]
  if (typeof status !== 'string' || !(NEW_ATTACHMENT_STATUSES as readonly string[]).includes(status))
    fail('ATTACHMENT_STATUS_INVALID')

  const { master, type } = await ports.references(actor, resIdMaster, fields.type)
  if (master === null) fail('ATTACHMENT_MASTER_OUT_OF_PERIMETER')
  if (type === null) fail('ATTACHMENT_TYPE_UNKNOWN')

  // Bytes that are not base64 are what libmagic calls text/plain in 20.10, so the format check refuses them.
  const bytes = decodeBase64(fields.encodedFile)
  const mimeType = bytes === null || bytes.length === 0 ? 'text/plain' : await ports.sniffer.sniff(bytes, fields.format)
  checkFormatAllowed(fields.format, mimeType)
  // A format that takes text/plain (txt) lets undecodable text this far: there are no bytes to store.
  if (bytes === null) fail('ENCODED_FILE_INVALID')
  // Check 10 of 20.10 (the file's size) is the body limit of the HTTP adapter: 413 before the body is read.

  let origin: AttachmentOrigin | null = null
  if (fields.type === 'signed_response' && !present(fields.originId)) fail('ATTACHMENT_SIGNED_RESPONSE_WITHOUT_ORIGIN')
  if (present(fields.originId)) {
    const originId = databaseIdOf(fields.originId, 'bigint')
    if (originId === null) fail('ATTACHMENT_NOT_INTEGER', { field: 'originId' })
    origin = await ports.origin(originId)
    if (origin === null) fail('ATTACHMENT_ORIGIN_UNKNOWN')
    if (origin.resIdMaster !== resIdMaster) fail('ATTACHMENT_ORIGIN_OTHER_MASTER')
    if (fields.type === 'signed_response') {
      if (!SIGNED_ORIGIN_STATUSES.has(origin.status)) fail('ATTACHMENT_ORIGIN_STATUS')
    } else if (origin.originId !== null) fail('ATTACHMENT_ORIGIN_IS_VERSION')
  }

  let recipient: NewAttachment['recipient'] = null
  if (present(fields.recipientId)) {
    const recipientId = databaseIdOf(fields.recipientId)
    if (recipientId === null) fail('ATTACHMENT_NOT_INTEGER', { field: 'recipientId' })
    const recipientType = fields.recipientType
    if (recipientType !== 'user' && recipientType !== 'contact') fail('ATTACHMENT_RECIPIENT_TYPE_INVALID')
    if (!(await ports.recipientExists(recipientType, recipientId))) fail('ATTACHMENT_RECIPIENT_UNKNOWN')
    recipient = { id: recipientId, type: recipientType }
  }
  const validationDate = dateOf(fields, 'validationDate')
  const effectiveDate = dateOf(fields, 'effectiveDate')

  const title = textOf(fields, 'title')
  const chrono = textOf(fields, 'chrono')
  if (fields.format.length > ATTACHMENT_TEXT_LIMITS.format)
    fail('ATTACHMENT_LENGTH_INVALID', { field: 'format', max: ATTACHMENT_TEXT_LIMITS.format })
  const typistId = databaseIdOf(fields.typist)
  const typist = typistId !== null && (await ports.userExists(typistId)) ? typistId : actor.id

  return ports.store(
    actor,
    {
      master,
      type,
      title,
      chrono,
      status,
      origin,
      recipient,
      validationDate,
      effectiveDate,
      typist,
      format: normaliseFormat(fields.format),
      bytes,
    },
    meta,
  )
}

/** A path id of the attachment routes: digits only, else 400 `Route id is not an integer` (20.10: 500). */
export function parseAttachmentId(text: string | undefined): number {
  return databaseIdOf(text, 'bigint') ?? fail('ROUTE_ID_NOT_INTEGER')
}

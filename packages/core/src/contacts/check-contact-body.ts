import { fail } from '../errors/domain-error.js'
import { ExternalIdSchema } from '../request-values/flat-values.js'
import {
  CONTACT_NOTES_MAX,
  CONTACT_TEXT_FIELDS,
  CONTACT_TEXT_MAX,
  type ContactJson,
  type ContactTextField,
  type ContactValues,
} from './contact.js'

/** Whether a create or an update checks the body: they differ on an unreadable `communicationMeans` only. */
export type ContactBodyUse = 'create' | 'update'

/** PHP's `empty()`, which Maarch's checks use: null, false, 0, "", "0" and empty arrays are empty. */
function phpEmpty(value: unknown): boolean {
  if (value === undefined || value === null || value === false || value === 0 || value === '' || value === '0')
    return true
  if (Array.isArray(value)) return value.length === 0
  return typeof value === 'object' && Object.keys(value).length === 0
}

/** Respect's `stringType()->notEmpty()`: a string with something besides spaces (and not "0"). */
function filledString(value: unknown): value is string {
  return typeof value === 'string' && !phpEmpty(value.trim())
}

/** An e-mail address as PHP's FILTER_VALIDATE_EMAIL takes it, near enough: local@domain.tld, no spaces. */
const EMAIL =
  /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$/
/** A URL as FILTER_VALIDATE_URL takes it, near enough: a scheme and something after it. */
const URL_PATTERN = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^\s/?#]+[^\s]*$/

export function isEmailAddress(value: unknown): value is string {
  return typeof value === 'string' && value.length <= 320 && EMAIL.test(value) && !value.includes('..')
}

/**
 * Maarch's phone rule `\+?((| |\.|\(|\)|-)?(\d)*)*\d$`, unanchored at the start: every part before the last
 * digit may match nothing, so a phone is valid when it ends with a digit (PHP's `$` also before a final
 * newline). Written so to avoid the original's nested quantifiers, which backtrack without end in JavaScript.
 */
function isPhone(value: unknown): boolean {
  return typeof value === 'string' && /\d\n?$/.test(value)
}

/** A SIRET number: 14 digits passing the Luhn check (AnnuaryController::isSiretNumber). */
export function isSiret(value: string): boolean {
  if (!/^\d{14}$/.test(value)) return false
  let sum = 0
  for (let index = 0; index < 14; index++) {
    let digit = Number(value[index])
    if (index % 2 === 0) {
      digit *= 2
      if (digit > 9) digit -= 9
    }
    sum += digit
  }
  return sum % 10 === 0
}

function textValue(body: Record<string, unknown>, field: ContactTextField): string | null {
  const value = body[field]
  // Empty values pass Maarch's checks and are stored as sent when they are strings ("" stays "").
  return typeof value === 'string' ? value : null
}

function jsonObject(value: unknown): ContactJson | null {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as ContactJson) : null
}

/**
 * Maarch 20.10's `controlContact`, in its order and with its messages, then what it leaves to the database
 * (Mailroom answers 400 where 20.10 answers 500): the body of POST and PUT /rest/contacts, as values to store.
 * Every field the body leaves out is null (a PUT replaces every column).
 */
export function checkContactBody(body: unknown, use: ContactBodyUse): ContactValues {
  if (body === null || typeof body !== 'object' || phpEmpty(body)) fail('BODY_NOT_SET_OR_EMPTY')
  const b = body as Record<string, unknown>
  if (!filledString(b.lastname) && !filledString(b.company)) fail('CONTACT_NAME_MANDATORY')
  if (!phpEmpty(b.email) && !isEmailAddress(b.email)) fail('CONTACT_EMAIL_INVALID')
  if (!phpEmpty(b.phone) && !isPhone(b.phone)) fail('CONTACT_PHONE_INVALID')
  for (const field of CONTACT_TEXT_FIELDS) {
    const value = b[field]
    if (phpEmpty(value)) continue
    if (typeof value !== 'string' || [...value].length > CONTACT_TEXT_MAX) fail('CONTACT_FIELD_LENGTH', { field })
  }
  if (b.notes !== undefined && b.notes !== null && typeof b.notes !== 'string') fail('CONTACT_NOTES_LENGTH')
  if (typeof b.notes === 'string' && [...b.notes].length > CONTACT_NOTES_MAX) fail('CONTACT_NOTES_LENGTH')
  if (!phpEmpty(b.customFields)) {
    if (typeof b.customFields !== 'object') fail('CONTACT_CUSTOM_FIELDS_NOT_ARRAY')
    // Mailroom has no contact custom fields (contacts_custom_fields_list): every id is unknown.
    fail('CUSTOM_FIELDS_NOT_FOUND')
  }
  const externalId = jsonObject(b.externalId)
  if (externalId !== null && !ExternalIdSchema.safeParse(externalId).success) fail('EXTERNAL_ID_NOT_FLAT')
  const m2m = externalId?.m2m
  if (!phpEmpty(m2m) && !isSiret(String(m2m).split('/')[0] ?? '')) fail('CONTACT_M2M_INVALID')
  const communicationMeans = communicationMeansOf(b.communicationMeans, use)
  const values: Record<string, unknown> = {}
  for (const field of CONTACT_TEXT_FIELDS) values[field] = textValue(b, field)
  return {
    ...(values as { [F in ContactTextField]: string | null }),
    communicationMeans,
    notes: typeof b.notes === 'string' ? b.notes : null,
    customFields: use === 'create' ? {} : null,
    externalId: externalId !== null && !phpEmpty(externalId) ? externalId : {},
  }
}

/**
 * `communicationMeans` is sent as one string, an e-mail address or a URL, and stored as `{email}` or `{url}`.
 * Anything else is refused on create and silently dropped on update, as 20.10 does.
 */
function communicationMeansOf(value: unknown, use: ContactBodyUse): ContactJson | null {
  if (phpEmpty(value)) return null
  if (isEmailAddress(value)) return { email: value }
  if (typeof value === 'string' && value.length <= 2048 && URL_PATTERN.test(value)) return { url: value }
  if (use === 'create') fail('CONTACT_COMMUNICATION_MEANS_INVALID')
  return null
}

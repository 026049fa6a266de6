import type { ContactJson, ContactTextField, ContactValues, StoredContact } from '@mailroom/core'
import type { Selectable } from 'kysely'
import type { ContactsTable } from '../database/schema.js'

/** The column of each text field of a contact. */
export const CONTACT_TEXT_COLUMNS = {
  civility: 'civility',
  firstname: 'firstname',
  lastname: 'lastname',
  company: 'company',
  department: 'department',
  function: 'function',
  addressNumber: 'address_number',
  addressStreet: 'address_street',
  addressAdditional1: 'address_additional1',
  addressAdditional2: 'address_additional2',
  addressPostcode: 'address_postcode',
  addressTown: 'address_town',
  addressCountry: 'address_country',
  email: 'email',
  phone: 'phone',
} as const satisfies Record<ContactTextField, keyof ContactsTable>

const TEXT_FIELDS = Object.keys(CONTACT_TEXT_COLUMNS) as ContactTextField[]

/** A stored JSON value as an object: anything else (a scalar, an array) reads as an empty object. */
function objectOf(value: unknown): ContactJson {
  const parsed = typeof value === 'string' ? safeParse(value) : value
  return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as ContactJson) : {}
}

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return null
  }
}

/** A row of `contacts` as core's contact. */
export function contactFromRow(row: Selectable<ContactsTable>): StoredContact {
  const texts: Record<string, string | null> = {}
  for (const field of TEXT_FIELDS) texts[field] = row[CONTACT_TEXT_COLUMNS[field]]
  return {
    ...(texts as { [F in ContactTextField]: string | null }),
    id: row.id,
    communicationMeans: row.communication_means === null ? null : objectOf(row.communication_means),
    notes: row.notes,
    creator: row.creator,
    creationDate: new Date(row.creation_date),
    modificationDate: row.modification_date === null ? null : new Date(row.modification_date),
    enabled: row.enabled,
    customFields: row.custom_fields === null ? null : objectOf(row.custom_fields),
    externalId: objectOf(row.external_id),
  }
}

/** The columns a contact's values write (not the id, creator, dates or enabled). */
export function contactValueColumns(values: ContactValues) {
  const texts: Record<string, string | null> = {}
  for (const field of TEXT_FIELDS) texts[CONTACT_TEXT_COLUMNS[field]] = values[field]
  return {
    ...(texts as { [F in ContactTextField as (typeof CONTACT_TEXT_COLUMNS)[F]]: string | null }),
    communication_means: values.communicationMeans === null ? null : JSON.stringify(values.communicationMeans),
    notes: values.notes,
    custom_fields: values.customFields === null ? null : JSON.stringify(values.customFields),
    external_id: JSON.stringify(values.externalId),
  }
}

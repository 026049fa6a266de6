import { CIVILITIES, type ContactJson, type StoredContact } from './contact.js'
import type { ContactWithCreator } from './ports.js'

/**
 * The fields the filling rate counts, with the thresholds of its levels: the contacts_parameters
 * (`filling = true`) and contacts_filling (33, 66) of Maarch 20.10's default configuration.
 */
const FILLING_FIELDS = [
  'firstname',
  'lastname',
  'addressStreet',
  'addressPostcode',
  'addressTown',
  'email',
  'phone',
] as const
const FILLING_THRESHOLDS = { first: 33, second: 66 }

/** How completely a contact is filled in, as 20.10 shows it beside each contact. */
export interface ContactFilling {
  readonly rate: number
  readonly thresholdLevel: 'first' | 'second' | 'third'
}

export function fillingOf(contact: StoredContact): ContactFilling {
  const filled = FILLING_FIELDS.filter((field) => contact[field] !== null && contact[field] !== '').length
  const percent = (filled * 100) / FILLING_FIELDS.length
  const thresholdLevel =
    percent <= FILLING_THRESHOLDS.first ? 'first' : percent <= FILLING_THRESHOLDS.second ? 'second' : 'third'
  return { rate: Math.round(percent * 100) / 100, thresholdLevel }
}

/** A contact as one line of `GET /rest/contacts`. */
export interface ContactListItem {
  readonly id: number
  readonly firstname: string | null
  readonly lastname: string | null
  readonly company: string | null
  readonly addressNumber: string | null
  readonly addressStreet: string | null
  readonly addressAdditional1: string | null
  readonly addressAdditional2: string | null
  readonly addressPostcode: string | null
  readonly addressTown: string | null
  readonly addressCountry: string | null
  readonly enabled: boolean
  /** Whether a record names the contact as sender or recipient. */
  readonly isUsed: boolean
  readonly filling: ContactFilling
}

export function contactListItem(contact: StoredContact, used: boolean): ContactListItem {
  return {
    id: contact.id,
    firstname: contact.firstname,
    lastname: contact.lastname,
    company: contact.company,
    addressNumber: contact.addressNumber,
    addressStreet: contact.addressStreet,
    addressAdditional1: contact.addressAdditional1,
    addressAdditional2: contact.addressAdditional2,
    addressPostcode: contact.addressPostcode,
    addressTown: contact.addressTown,
    addressCountry: contact.addressCountry,
    enabled: contact.enabled,
    isUsed: used,
    filling: fillingOf(contact),
  }
}

/** A civility as 20.10 answers it: its id with the label and abbreviation of the configuration (null when unknown). */
export interface ContactCivility {
  readonly id: string
  readonly label: string | null
  readonly abbreviation: string | null
}

/** A contact as `GET /rest/contacts/{id}` answers it. */
export interface ContactView {
  readonly id: number
  readonly civility: ContactCivility | null
  readonly firstname: string | null
  readonly lastname: string | null
  readonly company: string | null
  readonly department: string | null
  readonly function: string | null
  readonly addressNumber: string | null
  readonly addressStreet: string | null
  readonly addressAdditional1: string | null
  readonly addressAdditional2: string | null
  readonly addressPostcode: string | null
  readonly addressTown: string | null
  readonly addressCountry: string | null
  readonly email: string | null
  readonly phone: string | null
  /** The URL or e-mail address of the contact's system, as sent on create. */
  readonly communicationMeans: string | null
  readonly notes: string | null
  readonly creator: number | null
  readonly creatorLabel: string
  readonly enabled: boolean
  /** ISO 8601. */
  readonly creationDate: string
  readonly modificationDate: string | null
  /** Custom field values by id; `[]` when none (PHP's empty array, as 20.10 answers), null when never set. */
  readonly customFields: ContactJson | readonly [] | null
  /** Identifiers in other systems; `[]` when none, as 20.10 answers. */
  readonly externalId: ContactJson | readonly []
  readonly fillingRate: ContactFilling
}

/** 20.10 answers an empty JSON object as PHP's empty array: `[]`. Clients test it that way. */
function phpObject(value: ContactJson): ContactJson | readonly [] {
  return Object.keys(value).length === 0 ? [] : value
}

function meansOf(means: ContactJson | null): string | null {
  const value = means?.url ?? means?.email
  return typeof value === 'string' ? value : null
}

export function contactView(contact: ContactWithCreator): ContactView {
  const civility = contact.civility
  return {
    id: contact.id,
    civility:
      civility === null || civility === ''
        ? null
        : {
            id: civility,
            label: CIVILITIES[civility]?.label ?? null,
            abbreviation: CIVILITIES[civility]?.abbreviation ?? null,
          },
    firstname: contact.firstname,
    lastname: contact.lastname,
    company: contact.company,
    department: contact.department,
    function: contact.function,
    addressNumber: contact.addressNumber,
    addressStreet: contact.addressStreet,
    addressAdditional1: contact.addressAdditional1,
    addressAdditional2: contact.addressAdditional2,
    addressPostcode: contact.addressPostcode,
    addressTown: contact.addressTown,
    addressCountry: contact.addressCountry,
    email: contact.email,
    phone: contact.phone,
    communicationMeans: meansOf(contact.communicationMeans),
    notes: contact.notes,
    creator: contact.creator,
    creatorLabel: contact.creatorLabel,
    enabled: contact.enabled,
    creationDate: contact.creationDate.toISOString(),
    modificationDate: contact.modificationDate?.toISOString() ?? null,
    customFields: contact.customFields === null ? null : phpObject(contact.customFields),
    externalId: phpObject(contact.externalId),
    fillingRate: fillingOf(contact),
  }
}

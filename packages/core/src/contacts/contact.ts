/**
 * The text fields of a contact, in the order of Maarch 20.10's `controlContact` length check (which leaves
 * out addressAdditional1/2; Mailroom checks them too, after the others). Each holds at most 256 characters.
 */
export const CONTACT_TEXT_FIELDS = [
  'civility',
  'firstname',
  'lastname',
  'company',
  'department',
  'function',
  'addressNumber',
  'addressStreet',
  'addressPostcode',
  'addressTown',
  'addressCountry',
  'email',
  'phone',
  'addressAdditional1',
  'addressAdditional2',
] as const

/** One text field of a contact. */
export type ContactTextField = (typeof CONTACT_TEXT_FIELDS)[number]

/** The most characters a contact's text field holds (varchar(256) in Maarch 20.10). */
export const CONTACT_TEXT_MAX = 256
/** The most characters of a contact's notes (text in Maarch 20.10, bounded here). */
export const CONTACT_NOTES_MAX = 65536

/** A JSON object stored with a contact as is. */
export type ContactJson = Readonly<Record<string, unknown>>

/** What a create or an update writes: every column but the id, the creator and the dates. */
export type ContactValues = { readonly [F in ContactTextField]: string | null } & {
  readonly communicationMeans: ContactJson | null
  readonly notes: string | null
  readonly customFields: ContactJson | null
  readonly externalId: ContactJson
}

/** A contact as stored. */
export interface StoredContact extends ContactValues {
  readonly id: number
  /** users.id of the creator; null when unknown. */
  readonly creator: number | null
  readonly creationDate: Date
  readonly modificationDate: Date | null
  readonly enabled: boolean
}

/** The civilities of Maarch 20.10's default configuration (entreprise.xml `titles`), by id. */
export const CIVILITIES: Readonly<Record<string, { readonly label: string; readonly abbreviation: string }>> = {
  title1: { label: 'Monsieur', abbreviation: 'M.' },
  title2: { label: 'Madame', abbreviation: 'Mme' },
  title3: { label: 'Mademoiselle', abbreviation: 'Mlle' },
  title4: { label: 'Maître', abbreviation: 'Me' },
  title5: { label: 'Monseigneur', abbreviation: 'Mgr' },
  title6: { label: 'Docteur', abbreviation: 'Dr' },
  title7: { label: 'Professeur', abbreviation: 'Pr' },
  title8: { label: 'Mesdames', abbreviation: 'Mmes' },
  title9: { label: 'Messieurs', abbreviation: 'MM.' },
  title10: { label: 'Mesdemoiselles', abbreviation: 'Mlles' },
}

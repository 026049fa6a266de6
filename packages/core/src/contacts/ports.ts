import type { ContactValues, StoredContact } from './contact.js'
import type { ContactListQuery } from './contact-list-query.js'

/** A contact with the name of the user who created it (`firstname lastname`, empty when unknown). */
export interface ContactWithCreator extends StoredContact {
  readonly creatorLabel: string
}

/** A page of contacts, the number of contacts matching, and which of the page some record names. */
export interface ContactPage {
  readonly contacts: readonly StoredContact[]
  readonly count: number
  readonly usedIds: ReadonlySet<number>
}

/** Contacts as stored (table contacts). */
export interface ContactRepository {
  list(query: ContactListQuery): Promise<ContactPage>
  findById(id: number): Promise<ContactWithCreator | null>
  /** The first contact (lowest id) whose e-mail is this one, letter case aside. */
  findByEmail(email: string): Promise<ContactWithCreator | null>
  /** The first contact (lowest id) whose phone has these digits (and leading +), separators aside. */
  findByPhone(phoneDigits: string): Promise<ContactWithCreator | null>
  insert(values: ContactValues, creator: number): Promise<number>
  /** Replaces every column but the creator and creation date; false when no contact has this id. */
  replace(id: number, values: ContactValues): Promise<boolean>
}

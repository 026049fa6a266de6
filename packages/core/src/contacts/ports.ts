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

/** What an insert did: the new contact's id, or the contact that already has the e-mail address. */
export type ContactInsert = { readonly id: number } | { readonly existingId: number }

/** Who changes a contact, and what the history row of the change says. */
export interface ContactChange {
  readonly userId: number
  /** `Contact créé : Annie Capture (Piscine municipale)`, as 20.10 writes it. */
  readonly info: string
}

/** Contacts as stored (table contacts), each write with its history row, atomically. */
export interface ContactRepository {
  list(query: ContactListQuery): Promise<ContactPage>
  findById(id: number): Promise<ContactWithCreator | null>
  /** The first contact (lowest id) whose e-mail is this one, letter case aside. */
  findByEmail(email: string): Promise<ContactWithCreator | null>
  /** The first contact (lowest id) whose phone has these digits (and leading +), separators aside. */
  findByPhone(phoneDigits: string): Promise<ContactWithCreator | null>
  /**
   * Inserts a contact created by `change.userId`, with its history row (ADD, contactCreation). With
   * `uniqueMail`, a contact that already has its e-mail address (letter case aside) is answered instead and
   * nothing is written; the check and the insert are one step, so two concurrent creates cannot both pass it.
   */
  insert(
    values: ContactValues,
    change: ContactChange,
    options: { readonly uniqueMail: boolean },
  ): Promise<ContactInsert>
  /**
   * Replaces every column but the creator and creation date, with its history row (UP, contactModification);
   * false, and nothing written, when no contact has this id.
   */
  replace(id: number, values: ContactValues, change: ContactChange): Promise<boolean>
}

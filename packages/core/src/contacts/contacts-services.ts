import type { Actor } from '../actors/actor.js'
import { fail } from '../errors/domain-error.js'
import { databaseIdOf } from '../request-values/database-id.js'
import { checkContactBody } from './check-contact-body.js'
import type { ContactValues } from './contact.js'
import { parseContactListQuery } from './contact-list-query.js'
import { requireContactPrivilege } from './contact-privileges.js'
import { type ContactListItem, type ContactView, contactListItem, contactView } from './contact-view.js'
import type { ContactRepository } from './ports.js'

/** Answer of `GET /rest/contacts`. */
export interface ContactListAnswer {
  readonly contacts: readonly ContactListItem[]
  readonly count: number
}

/** Answer of `POST /rest/contacts`: the new id (`warning`: the Maarch2Maarch annuary's, always empty here). */
export interface ContactCreatedAnswer {
  readonly id: number
  readonly warning: string
}

/** What a create is told besides its body. */
export interface ContactCreateOptions {
  /** `?allowDuplicateMail=true`: create even when a contact already has this e-mail address. */
  readonly allowDuplicateMail?: boolean
}

/** The contacts use cases (Maarch 20.10 ContactController, and getContactByMail/Phone of later releases). */
export interface ContactsServices {
  list(actor: Actor, query: Readonly<Record<string, unknown>>): Promise<ContactListAnswer>
  read(actor: Actor, id: string): Promise<ContactView>
  create(actor: Actor, body: unknown, options?: ContactCreateOptions): Promise<ContactCreatedAnswer>
  update(actor: Actor, id: string, body: unknown): Promise<void>
  /** The first contact with this e-mail address, or null. */
  findByMail(actor: Actor, mail: unknown): Promise<ContactView | null>
  /** The first contact with this phone number (separators aside), or null. */
  findByPhone(actor: Actor, phone: unknown): Promise<ContactView | null>
}

/** A route id as 20.10's `intVal` takes it, within PostgreSQL's integer. */
export function parseContactId(id: string): number {
  return databaseIdOf(id) ?? fail('ROUTE_ID_NOT_INTEGER')
}

function queryText(name: string, value: unknown): string {
  const text = Array.isArray(value) ? value[value.length - 1] : value
  if (typeof text !== 'string' || text.trim() === '')
    fail('CONTACT_QUERY_INVALID', { name, rule: 'is not set or empty' })
  if (text.length > 256) fail('CONTACT_QUERY_INVALID', { name, rule: 'is longer than 256 characters' })
  return text.trim()
}

/** The history text of a contact's change, as 20.10 writes it: `Contact créé : Annie Capture (Piscine municipale)`. */
export function historyInfo(what: string, values: Pick<ContactValues, 'firstname' | 'lastname' | 'company'>): string {
  const name = values.firstname || values.lastname ? `${values.firstname ?? ''} ${values.lastname ?? ''}` : ''
  const company = values.company ?? ''
  const info = name !== '' && company !== '' ? `${name} (${company})` : `${name}${company}`
  return `${what} : ${info.trim()}`
}

/** The digits of a phone number, with its leading +: how phones are compared. */
export function phoneDigits(phone: string): string {
  return (phone.trim().startsWith('+') ? '+' : '') + phone.replace(/\D/g, '')
}

/**
 * The contacts use cases over a repository: each checks the caller's privilege, then the request in Maarch
 * 20.10's order, and refuses with the catalogue's messages.
 */
export function createContactsServices(contacts: ContactRepository): ContactsServices {
  return {
    async list(actor, query) {
      requireContactPrivilege(actor, 'admin_contacts')
      const page = await contacts.list(parseContactListQuery(query))
      return {
        contacts: page.contacts.map((contact) => contactListItem(contact, page.usedIds.has(contact.id))),
        count: page.count,
      }
    },

    async read(_actor, id) {
      const contact = await contacts.findById(parseContactId(id))
      if (!contact) fail('CONTACT_NOT_FOUND')
      return contactView(contact)
    },

    async create(actor, body, options = {}) {
      requireContactPrivilege(actor, 'create_contacts', 'admin_contacts')
      const values = checkContactBody(body, 'create')
      const change = { userId: actor.id, info: historyInfo('Contact créé', values) }
      const uniqueMail = values.email !== null && values.email !== '' && options.allowDuplicateMail !== true
      const inserted = await contacts.insert(values, change, { uniqueMail })
      if ('existingId' in inserted) fail('CONTACT_DUPLICATE_MAIL', { id: inserted.existingId })
      return { id: inserted.id, warning: '' }
    },

    async update(actor, id, body) {
      requireContactPrivilege(actor, 'update_contacts', 'admin_contacts')
      const contactId = parseContactId(id)
      const values = checkContactBody(body, 'update')
      const change = { userId: actor.id, info: historyInfo('Contact modifié', values) }
      if (!(await contacts.replace(contactId, values, change))) fail('CONTACT_NOT_FOUND')
    },

    async findByMail(_actor, mail) {
      const contact = await contacts.findByEmail(queryText('mail', mail))
      return contact ? contactView(contact) : null
    },

    async findByPhone(_actor, phone) {
      const digits = phoneDigits(queryText('phone', phone))
      if (digits.replace('+', '') === '') return null
      const contact = await contacts.findByPhone(digits)
      return contact ? contactView(contact) : null
    },
  }
}

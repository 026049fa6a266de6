import type { MailroomClient } from '@mailroom/sdk'

/*
 * The capture routes of Maarch 20.10 the console reads and writes (issue 32), through the SDK client's
 * transport: the same credentials, timeout, retries and error messages as every other call. Only the fields
 * the pages show are typed; the server answers Maarch 20.10's shapes (the recorded answers in
 * packages/testing/fixtures/maarch-20.10-answers).
 */

/** A row of GET /rest/statuses. */
export interface StatusRow {
  readonly identifier: number
  readonly id: string
  readonly label_status: string
  readonly can_be_searched?: string
}

/** An item of GET /rest/doctypes' flat tree: a first level, a second level or a document type. */
export interface DoctypeNode {
  readonly id: string | number
  readonly text: string
  readonly parent: string
  readonly type_id?: number
  readonly enabled?: string
}

/** An item of GET /rest/entities: every enabled entity, `allowed` for the caller's and below. */
export interface EntityNode {
  readonly id: string
  readonly entity_id: string
  readonly entity_label: string
  readonly serialId: number
  readonly parent: string
  readonly allowed: boolean
}

/** A row of GET /rest/priorities. */
export interface PriorityRow {
  readonly id: string
  readonly label: string
  readonly delays: number
  readonly order: number
}

/** A row of GET /rest/indexingModels. */
export interface IndexingModelRow {
  readonly id: number
  readonly label: string
  readonly category: string
  readonly default: boolean
}

/** What the console reads of GET /rest/currentUser/profile. */
export interface CurrentUserProfile {
  readonly id: number
  readonly user_id: string
  readonly firstname: string | null
  readonly lastname: string | null
  readonly groups: readonly { readonly group_id: string; readonly can_index: boolean }[]
  readonly entities: readonly { readonly id: number; readonly entity_id: string; readonly entity_label: string }[]
  readonly privileges: readonly string[]
}

/** A contact as GET /rest/contacts/{id}, GET /rest/contacts and GET /rest/getContactByMail answer it. */
export interface ContactRow {
  readonly id: number
  readonly firstname?: string | null
  readonly lastname?: string | null
  readonly company?: string | null
  readonly email?: string | null
  readonly addressTown?: string | null
}

/** A note of GET /rest/resources/{resId}/notes. */
export interface NoteRow {
  readonly id: number
  readonly value: string
  readonly creation_date: string
  readonly firstname: string | null
  readonly lastname: string | null
  readonly entity_label?: string | null
  readonly entities_restriction?: readonly { readonly short_label: string; readonly item_id: readonly string[] }[]
}

/** An attachment of GET /rest/resources/{resId}/attachments. */
export interface AttachmentRow {
  readonly resId: number
  readonly chrono: string | null
  readonly title: string | null
  readonly typistLabel: string
  readonly creationDate: string
  readonly status: string
  readonly type: string
  readonly typeLabel: string
  readonly relation: number
}

/** An attachment type of GET /rest/attachmentsTypes. */
export interface AttachmentType {
  readonly label: string
  readonly show: boolean
}

/** A linked record of GET /rest/resources/{resId}/linkedResources. */
export interface LinkedRecord {
  readonly resId: number
  readonly chrono: string | null
  readonly subject: string | null
  readonly status: string | null
  readonly statusLabel?: string | null
  readonly destinationLabel?: string | null
}

/** The body of POST /rest/attachments the console sends. */
export interface NewAttachment {
  readonly resIdMaster: number
  readonly type: string
  readonly title?: string
  readonly encodedFile: string
  readonly format: string
}

/** A file of GET /rest/attachments/{id}/content or /originalContent with mode=base64. */
export interface AttachmentFile {
  readonly encodedDocument: string
  readonly filename: string
  readonly mimeType: string
}

export const readStatuses = async (client: MailroomClient) =>
  (await client.transport.json<{ statuses: StatusRow[] }>('GET', 'rest/statuses')).statuses

export const readDoctypes = async (client: MailroomClient) =>
  (await client.transport.json<{ structure: DoctypeNode[] }>('GET', 'rest/doctypes')).structure

export const readEntities = async (client: MailroomClient) =>
  (await client.transport.json<{ entities: EntityNode[] }>('GET', 'rest/entities')).entities

export const readPriorities = async (client: MailroomClient) =>
  (await client.transport.json<{ priorities: PriorityRow[] }>('GET', 'rest/priorities')).priorities

export const readIndexingModels = async (client: MailroomClient) =>
  (await client.transport.json<{ indexingModels: IndexingModelRow[] }>('GET', 'rest/indexingModels')).indexingModels

export const readProfile = (client: MailroomClient) =>
  client.transport.json<CurrentUserProfile>('GET', 'rest/currentUser/profile')

export const readContact = (client: MailroomClient, id: number) =>
  client.transport.json<ContactRow>('GET', `rest/contacts/${id}`)

/** GET /rest/contacts?search= (privilege admin_contacts): every word must match. */
export const searchContacts = async (client: MailroomClient, search: string, limit = 10) =>
  (await client.transport.json<{ contacts: ContactRow[] }>('GET', 'rest/contacts', { query: { search, limit } }))
    .contacts

/** GET /rest/getContactByMail: the contact, or null when the server answers an empty object. */
export async function findContactByMail(client: MailroomClient, mail: string): Promise<ContactRow | null> {
  const found = await client.transport.json<Partial<ContactRow>>('GET', 'rest/getContactByMail', { query: { mail } })
  return typeof found.id === 'number' ? (found as ContactRow) : null
}

export const readNotes = async (client: MailroomClient, resId: number) =>
  (await client.transport.json<{ notes: NoteRow[] }>('GET', `rest/resources/${resId}/notes`)).notes

/** POST /rest/notes; `entities` (entity_ids) keeps the note for their members and its author. */
export const addNote = (client: MailroomClient, resId: number, value: string, entities: readonly string[] = []) =>
  client.transport.json<{ noteId: number }>('POST', 'rest/notes', {
    body: { resId, value, ...(entities.length > 0 ? { entities } : {}) },
  })

export const readAttachments = async (client: MailroomClient, resId: number) =>
  (await client.transport.json<{ attachments: AttachmentRow[] }>('GET', `rest/resources/${resId}/attachments`))
    .attachments

export const readAttachmentTypes = async (client: MailroomClient) =>
  (await client.transport.json<{ attachmentsTypes: Record<string, AttachmentType> }>('GET', 'rest/attachmentsTypes'))
    .attachmentsTypes

export const addAttachment = (client: MailroomClient, body: NewAttachment) =>
  client.transport.json<{ id: number }>('POST', 'rest/attachments', { body })

/** The converted (watermarked) PDF, or the file as stored, of an attachment. */
export const readAttachmentFile = (client: MailroomClient, id: number, which: 'content' | 'originalContent') =>
  client.transport.json<AttachmentFile>('GET', `rest/attachments/${id}/${which}`, { query: { mode: 'base64' } })

export const readLinks = async (client: MailroomClient, resId: number) =>
  (await client.transport.json<{ linkedResources: LinkedRecord[] }>('GET', `rest/resources/${resId}/linkedResources`))
    .linkedResources

export const addLinks = (client: MailroomClient, resId: number, linkedResources: readonly number[]) =>
  client.transport.empty('POST', `rest/resources/${resId}/linkedResources`, { body: { linkedResources } })

export const removeLink = (client: MailroomClient, resId: number, linkedId: number) =>
  client.transport.empty('DELETE', `rest/resources/${resId}/linkedResources/${linkedId}`)

/**
 * The ids of the records within the caller's perimeter whose sender is this contact: POST /rest/search with
 * 20.10's `senders` criterion (its `allResources` lists every match, whatever the page).
 */
export const searchBySender = async (client: MailroomClient, contactId: number) =>
  (
    await client.transport.json<{ allResources: number[] }>('POST', 'rest/search', {
      body: { senders: { values: [{ id: contactId, type: 'contact' }] } },
      query: { limit: 1 },
      idempotent: true,
    })
  ).allResources

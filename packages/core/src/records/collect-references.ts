import { type Actor, isRoot } from '../actors/actor.js'
import { isEmptyValue, isPlainObject, readId, readList } from './body-values.js'
import type { RecordReferenceQuery } from './ports.js'

/** Ids the database can hold: larger ones cannot exist, and must not reach an int4 column in a query. */
const MAX_STORED_ID = 2_147_483_647

/**
 * Every id a create body names, read leniently (malformed values are skipped: the ordered checks report
 * them), so that one lookup answers all existence checks.
 */
export function collectReferences(actor: Actor, body: Readonly<Record<string, unknown>>): RecordReferenceQuery {
  const users = new Set<number>()
  const logins = new Set<string>()
  const entities = new Set<number>()
  const contacts = new Set<number>()
  const typist = body.typist
  if (!isEmptyValue(typist)) {
    const id = readId(typist)
    if (id !== null) users.add(id)
    else if (typeof typist === 'string') logins.add(typist.trim().toLowerCase())
  }
  for (const field of ['senders', 'recipients', 'diffusionList'] as const) {
    for (const item of readList(body[field]) ?? []) {
      if (!isPlainObject(item)) continue
      const id = readId(item.id)
      if (id === null) continue
      if (item.type === 'user') users.add(id)
      else if (item.type === 'entity') entities.add(id)
      else if (item.type === 'contact' && field !== 'diffusionList') contacts.add(id)
    }
  }
  for (const field of ['initiator', 'destination'] as const) {
    const id = readId(body[field])
    if (id !== null) entities.add(id)
  }
  const customFields =
    isPlainObject(body.customFields) || Array.isArray(body.customFields)
      ? Object.keys(body.customFields).map(readId)
      : []
  const hasFile = typeof body.encodedFile === 'string' && body.encodedFile !== ''
  const needsTree =
    hasFile || (!isRoot(actor) && (readId(body.initiator) !== null || readId(body.destination) !== null))
  return {
    modelId: storable(readId(body.modelId)),
    doctype: storable(readId(body.doctype)),
    status: typeof body.status === 'string' ? body.status.trim() : null,
    priority: typeof body.priority === 'string' ? body.priority : null,
    userIds: ids(users),
    userLogins: [...logins],
    entityIds: ids(entities),
    contactIds: ids(contacts),
    folderIds: ids((readList(body.folders) ?? []).map(readId)),
    tagIds: ids((readList(body.tags) ?? []).map(readId)),
    customFieldIds: ids(customFields),
    needEntityTree: needsTree,
    reserveResourceId: hasFile,
  }
}

function storable(id: number | null): number | null {
  return id !== null && id <= MAX_STORED_ID ? id : null
}

function ids(values: Iterable<number | null>): number[] {
  const out = new Set<number>()
  for (const v of values) if (v !== null && v <= MAX_STORED_ID) out.add(v)
  return [...out]
}

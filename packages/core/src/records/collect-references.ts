import { type Actor, isRoot } from '../actors/actor.js'
import { databaseIdOf } from '../request-values/database-id.js'
import { isEmptyValue, isPlainObject, readList } from './body-values.js'
import type { RecordReferenceQuery } from './ports.js'

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
    const id = databaseIdOf(typist)
    if (id !== null) users.add(id)
    else if (typeof typist === 'string') logins.add(typist.trim().toLowerCase())
  }
  for (const field of ['senders', 'recipients', 'diffusionList'] as const) {
    for (const item of readList(body[field]) ?? []) {
      if (!isPlainObject(item)) continue
      const id = databaseIdOf(item.id)
      if (id === null) continue
      if (item.type === 'user') users.add(id)
      else if (item.type === 'entity') entities.add(id)
      else if (item.type === 'contact' && field !== 'diffusionList') contacts.add(id)
    }
  }
  for (const field of ['initiator', 'destination'] as const) {
    const id = databaseIdOf(body[field])
    if (id !== null) entities.add(id)
  }
  const customFields =
    isPlainObject(body.customFields) || Array.isArray(body.customFields)
      ? Object.keys(body.customFields).map((id) => databaseIdOf(id))
      : []
  const hasFile = typeof body.encodedFile === 'string' && body.encodedFile !== ''
  const needsTree =
    hasFile || (!isRoot(actor) && (databaseIdOf(body.initiator) !== null || databaseIdOf(body.destination) !== null))
  return {
    modelId: databaseIdOf(body.modelId),
    doctype: databaseIdOf(body.doctype),
    status: typeof body.status === 'string' ? body.status.trim() : null,
    priority: typeof body.priority === 'string' ? body.priority : null,
    userIds: ids(users),
    userLogins: [...logins],
    entityIds: ids(entities),
    contactIds: ids(contacts),
    folderIds: ids((readList(body.folders) ?? []).map((id) => databaseIdOf(id))),
    tagIds: ids((readList(body.tags) ?? []).map((id) => databaseIdOf(id))),
    customFieldIds: ids(customFields),
    needEntityTree: needsTree,
    reserveResourceId: hasFile,
  }
}

function ids(values: Iterable<number | null>): number[] {
  const out = new Set<number>()
  for (const v of values) if (v !== null) out.add(v)
  return [...out]
}

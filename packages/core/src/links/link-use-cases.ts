import type { Actor } from '../actors/actor.js'
import { hasPrivilege } from '../actors/privileges.js'
import { canConvertToPdf } from '../content/formats.js'
import { fail } from '../errors/domain-error.js'
import type { HistoryRow } from '../history/history-row.js'
import type { RecordPerimeter } from '../perimeter/ports.js'
import { databaseIdOf } from '../request-values/database-id.js'
import {
  checkLinkTargets,
  LINK_HISTORY,
  parseLinkedResources,
  parseLinkResId,
  parseUnlinkedId,
} from './link-request.js'
import type { LinkedResources, LinksServices } from './linked-resource.js'
import type { LinksStore, LockedChronos } from './ports.js'

/** What the links use cases need from the outside. */
export interface LinksDependencies {
  readonly links: LinksStore
  readonly perimeter: RecordPerimeter
}

type Meta = { readonly remoteIp?: string }

/** The record addressed by the route, in the actor's perimeter (20.10: 403 for anything else). */
async function addressed(deps: LinksDependencies, actor: Actor, text: string | undefined): Promise<number> {
  const resId = parseLinkResId(text)
  if (!(await deps.perimeter.allows(actor, resId))) fail('RESOURCE_OUT_OF_PERIMETER')
  return resId
}

/** `GET /rest/resources/{resId}/linkedResources`: the linked records the actor may see (20.10 leaves the others out). */
export async function listLinks(
  deps: LinksDependencies,
  actor: Actor,
  resIdText: string | undefined,
): Promise<LinkedResources> {
  const resId = await addressed(deps, actor, resIdText)
  const ids = (await deps.links.linkedIds(resId))
    .map((id) => databaseIdOf(id, 'bigint'))
    .filter((id): id is number => id !== null)
  const allowed = await deps.perimeter.allowedAmong(actor, ids)
  const records = await deps.links.describe([...allowed])
  return {
    linkedResources: records.map((record) => ({
      ...record,
      canConvert: record.format ? canConvertToPdf(record.format) : false,
    })),
  }
}

/**
 * `POST /rest/resources/{resId}/linkedResources` in 20.10's order: the privilege, the record, the body, every
 * linked record in the perimeter, no link to itself. Each new link gets a history row on both records.
 */
export async function linkRecords(
  deps: LinksDependencies,
  actor: Actor,
  resIdText: string | undefined,
  body: unknown,
  meta: Meta = {},
): Promise<void> {
  if (!hasPrivilege(actor, 'add_links')) fail('SERVICE_FORBIDDEN')
  const resId = await addressed(deps, actor, resIdText)
  const linked = parseLinkedResources(body)
  checkLinkTargets(resId, linked, await deps.perimeter.allowedAmong(actor, linked))
  await deps.links.link(
    actor,
    resId,
    linked,
    (chronos) => linked.flatMap((id) => linkHistoryPair(resId, id, LINK_HISTORY.added, chronos)),
    meta,
  )
}

/** `DELETE /rest/resources/{resId}/linkedResources/{id}`: the privilege, both records in the perimeter; both ways. */
export async function unlinkRecords(
  deps: LinksDependencies,
  actor: Actor,
  resIdText: string | undefined,
  idText: string | undefined,
  meta: Meta = {},
): Promise<void> {
  if (!hasPrivilege(actor, 'add_links')) fail('SERVICE_FORBIDDEN')
  const resId = await addressed(deps, actor, resIdText)
  const id = parseUnlinkedId(idText)
  if (!(await deps.perimeter.allows(actor, id))) fail('UNLINKED_RESOURCE_OUT_OF_PERIMETER')
  await deps.links.unlink(
    actor,
    resId,
    id,
    (chronos) => linkHistoryPair(resId, id, LINK_HISTORY.removed, chronos),
    meta,
  )
}

/** The two rows of a link added or removed: on each record, naming the other by its chrono (20.10's text). */
export function linkHistoryPair(resId: number, otherId: number, what: string, chronos: LockedChronos): HistoryRow[] {
  return [linkHistory(resId, what, chronos.get(otherId)), linkHistory(otherId, what, chronos.get(resId))]
}

function linkHistory(recordId: number, what: string, otherChrono: string | null | undefined): HistoryRow {
  return {
    tableName: LINK_HISTORY.tableName,
    recordId,
    eventType: LINK_HISTORY.eventType,
    eventId: LINK_HISTORY.eventId,
    module: LINK_HISTORY.module,
    info: `${what} : ${otherChrono ?? ''}`,
  }
}

/** The links use cases over their ports (storage implements them, the composition root wires them). */
export function createLinksUseCases(deps: LinksDependencies): LinksServices {
  return {
    list: (actor, resId) => listLinks(deps, actor, resId),
    link: (actor, resId, body, meta) => linkRecords(deps, actor, resId, body, meta),
    unlink: (actor, resId, id, meta) => unlinkRecords(deps, actor, resId, id, meta),
  }
}

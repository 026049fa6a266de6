import type { TestResponse, TestServer } from '../servers/test-server.js'
import type { MaarchExchange } from './maarch-exchanges.js'
import { replayMaarchRequest } from './replay.js'

/**
 * Which Mailroom ids stand for the ids of Maarch's sample data in a recorded exchange: the records (resId) and
 * notes a test made for it, the demo entities that play Maarch's, the chronos. An id with no entry is sent as
 * recorded (the unknown ids, such as 99999, stay unknown).
 */
export interface MaarchIdMapping {
  readonly resources?: ReadonlyMap<number, number>
  readonly notes?: ReadonlyMap<number, number>
  readonly entities?: ReadonlyMap<string, string>
  readonly chronos?: ReadonlyMap<string, string>
  /** Status codes of the sample the demo has not (ATT_MP), by a demo one. */
  readonly statuses?: ReadonlyMap<string, string>
}

const mapped = <K, V extends K>(map: ReadonlyMap<K, V> | undefined, value: K): K => map?.get(value) ?? value

/** A record id of a path or a body, mapped; anything that is not an integer is left as it is. */
function mapResId(mapping: MaarchIdMapping, value: unknown): unknown {
  return typeof value === 'number' ? mapped(mapping.resources, value) : value
}

/** The exchange with its ids rewritten to the Mailroom ones (path and the body fields that name records, notes, entities). */
export function withMailroomIds(exchange: MaarchExchange, mapping: MaarchIdMapping): MaarchExchange {
  const path = exchange.request.path
    .replace(
      /\/(resources|linkedResources)\/(\d+)/g,
      (_, kind: string, id: string) => `/${kind}/${mapResId(mapping, Number(id))}`,
    )
    .replace(/\/notes\/(\d+)/, (_, id: string) => `/notes/${mapped(mapping.notes, Number(id))}`)
  let body = exchange.request.body
  if (body !== null && typeof body === 'object' && !Array.isArray(body)) {
    const fields = { ...(body as Record<string, unknown>) }
    const mapList = (value: unknown, one: (item: unknown) => unknown) =>
      Array.isArray(value) ? value.map(one) : one(value)
    if ('resId' in fields) fields.resId = mapList(fields.resId, (id) => mapResId(mapping, id))
    if ('linkedResources' in fields)
      fields.linkedResources = mapList(fields.linkedResources, (id) => mapResId(mapping, id))
    if (Array.isArray(fields.entities))
      fields.entities = fields.entities.map((e) => (typeof e === 'string' ? mapped(mapping.entities, e) : e))
    if (Array.isArray(fields.chrono))
      fields.chrono = fields.chrono.map((c) => (typeof c === 'string' ? mapped(mapping.chronos, c) : c))
    if (typeof fields.status === 'string') fields.status = mapped(mapping.statuses, fields.status)
    body = fields
  }
  return { ...exchange, request: { ...exchange.request, path, body } }
}

/** Sends a recorded request to Mailroom with its ids rewritten by {@link withMailroomIds}. */
export function replayWithMailroomIds(
  server: Pick<TestServer, 'call'>,
  exchange: MaarchExchange,
  mapping: MaarchIdMapping,
): Promise<TestResponse> {
  return replayMaarchRequest(server, withMailroomIds(exchange, mapping))
}

import { fail } from '../errors/domain-error.js'
import { databaseIdOf } from '../request-values/database-id.js'

/** A note to write, checked as far as the body alone allows (the perimeter and the entities are storage's). */
export interface NoteCreateRequest {
  readonly resId: number
  readonly value: string
  /** entity_ids the note is restricted to, each once, in the caller's order; empty: no restriction. */
  readonly entities: readonly string[]
}

/** entities.entity_id is varchar(32): a longer id cannot name an entity. */
const ENTITY_ID_MAX = 32

/**
 * The body of `POST /rest/notes`, checked in 20.10's order: value, then resId. `entities` is checked after the
 * perimeter (by {@link parseNoteEntities}), as 20.10 does.
 */
export function parseNoteCreateBody(body: unknown): { resId: number; value: string; entities: unknown } {
  const fields = (body ?? {}) as Record<string, unknown>
  const value = fields.value
  if (typeof value !== 'string' || value === '') fail('NOTE_VALUE_INVALID')
  const resId = databaseIdOf(fields.resId, 'bigint')
  if (resId === null) fail('CREATE_NOT_INTEGER', { field: 'resId' })
  return { resId, value, entities: fields.entities }
}

/**
 * The `entities` of a note body: absent, null or empty means none; anything but an array is refused; an item that
 * is not a string of an entity_id's length can name no entity (so it is "unknown", checked with the others).
 * Returns the distinct ids and whether an item could not be one.
 */
export function parseNoteEntities(entities: unknown): { ids: string[]; impossible: boolean } {
  if (entities === undefined || entities === null || entities === '' || entities === false) {
    return { ids: [], impossible: false }
  }
  if (!Array.isArray(entities)) fail('NOTE_ENTITIES_NOT_ARRAY')
  const ids = new Set<string>()
  let impossible = false
  for (const item of entities) {
    if (typeof item === 'string' && item.length > 0 && item.length <= ENTITY_ID_MAX) ids.add(item)
    else impossible = true
  }
  return { ids: [...ids], impossible }
}

/** The `resId` of `GET /rest/resources/{resId}/notes`. */
export function parseNotesResId(text: string | undefined): number {
  return databaseIdOf(text, 'bigint') ?? fail('NOTE_ROUTE_RES_ID_INVALID')
}

/** The optional `limit` of the notes list: absent or a non-negative integer (0: no limit, as 20.10). */
export function parseNotesLimit(text: unknown): number | null {
  if (text === undefined || text === '') return null
  if (typeof text !== 'string' || !/^[0-9]{1,9}$/.test(text)) fail('NOTES_LIMIT_INVALID')
  const limit = Number(text)
  return limit === 0 ? null : limit
}

/** The `id` of `GET /rest/notes/{id}`: 400 where 20.10 answers 500. */
export function parseNoteId(text: string | undefined): number {
  return databaseIdOf(text) ?? fail('ROUTE_ID_NOT_INTEGER')
}

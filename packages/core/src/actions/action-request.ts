import { fail } from '../errors/domain-error.js'
import { databaseIdOf } from '../request-values/database-id.js'
import { isStorableText } from '../status/status-update-request.js'
import { MAX_ACTION_RESOURCES } from './action-limits.js'

/** A note written on every letter an action changes (20.10's `note: {content, entities}`). */
export interface ActionNote {
  readonly content: string
  /** entity_ids the note is restricted to; empty: no restriction. */
  readonly entities: readonly string[]
}

/** A checked body of `PUT .../actions/{actionId}`. */
export interface ActionRequest {
  /** res_ids, deduplicated, in the caller's order. */
  readonly resources: readonly number[]
  /** Null when absent or its content is blank (20.10 then writes no note). */
  readonly note: ActionNote | null
  /** The component's data (redirect's list, mark-as-read's basket…); `{}` when absent. */
  readonly data: Readonly<Record<string, unknown>>
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/**
 * The `resources` of a body: a non-empty array of letter ids (JSON integers or their digits, as the web client
 * sends both), at most 500, deduplicated. `emptyCode` is the route's wording of a missing or empty list.
 */
export function parseActionResources(
  body: unknown,
  emptyCode: 'ACTION_RESOURCES_INVALID' | 'ACTION_CHECK_RESOURCES_INVALID' = 'ACTION_RESOURCES_INVALID',
): number[] {
  const resources = isRecord(body) ? body.resources : undefined
  if (!Array.isArray(resources) || resources.length === 0) fail(emptyCode)
  if (resources.length > MAX_ACTION_RESOURCES) fail('ACTION_TOO_MANY_RESOURCES')
  const ids = resources.map(
    (value, index) => databaseIdOf(value, 'bigint') ?? fail('ACTION_RESOURCE_INVALID', { index }),
  )
  return [...new Set(ids)]
}

function parseNote(value: unknown): ActionNote | null {
  if (value === undefined || value === null || (Array.isArray(value) && value.length === 0)) return null
  if (!isRecord(value)) fail('ACTION_NOTE_INVALID')
  const { content, entities } = value
  if (content !== undefined && content !== null && typeof content !== 'string') fail('ACTION_NOTE_INVALID')
  const list = entities ?? []
  if (!Array.isArray(list) || !list.every((e) => typeof e === 'string' && isStorableText(e)))
    fail('ACTION_NOTE_INVALID')
  const text = typeof content === 'string' ? content : ''
  if (!isStorableText(text)) fail('ACTION_NOTE_INVALID')
  // 20.10 writes a note only when its content is not blank.
  return text.trim() === '' ? null : { content: text, entities: [...new Set(list as string[])] }
}

/** `PUT .../actions/{actionId}`'s body: `{resources, note?, data?}`. */
export function parseActionRequest(body: unknown): ActionRequest {
  const resources = parseActionResources(body)
  const fields = body as Record<string, unknown>
  const data = fields.data ?? {}
  // 20.10's client sends `data: []` for no data (a PHP empty array).
  if (Array.isArray(data) && data.length === 0) return { resources, note: parseNote(fields.note), data: {} }
  if (!isRecord(data)) fail('ACTION_DATA_INVALID')
  return { resources, note: parseNote(fields.note), data }
}

/** A route's id (user, group, basket, action): null when it could name no row, so the route answers "not found". */
export function routeIdOf(text: string | undefined): number | null {
  return databaseIdOf(text, 'integer')
}

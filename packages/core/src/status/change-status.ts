import type { Actor } from '../actors/actor.js'
import { fail } from '../errors/domain-error.js'
import type { RecordPerimeter } from '../perimeter/ports.js'
import { linkedChronoOf, redactHistoryEntry } from './history-redaction.js'
import type { RecordStatusStore } from './ports.js'
import {
  type HistoryEntry,
  parseResIdParam,
  RECORD_HISTORY_TABLES,
  type RecordHistory,
  STATUS_UPDATE_HISTORY,
} from './record-history.js'
import type { StatusServices, StatusUpdateMeta, StatusUpdateResult } from './status-services.js'
import { checkStatusTargets } from './status-targets.js'
import {
  isStorableText,
  parseStatusUpdateRequest,
  parseTargetStatus,
  type StatusTargets,
} from './status-update-request.js'

/** What the status use cases need from the outside. */
export interface StatusDependencies {
  readonly statuses: RecordStatusStore
  readonly perimeter: RecordPerimeter
}

/**
 * `PUT /rest/res/resource/status`, in the reference's order (§5): the target status (its shape, then whether
 * it exists), the history message and the identifier lists, then, with the records locked, each identifier in
 * list order (not found, out of perimeter). Every record changes, or none.
 */
export async function changeStatus(
  deps: StatusDependencies,
  actor: Actor,
  body: unknown,
  meta: StatusUpdateMeta = {},
): Promise<StatusUpdateResult> {
  const status = (await deps.statuses.findStatus(parseTargetStatus(body))) ?? fail('STATUS_NOT_FOUND')
  const request = parseStatusUpdateRequest(body)
  await deps.statuses.changeStatus(
    actor,
    lockable(request.targets),
    (lookup) => checkStatusTargets(request.targets, lookup),
    { status, history: { ...STATUS_UPDATE_HISTORY, info: request.historyMessage } },
    meta,
  )
  return { success: 'success' }
}

/** `GET /rest/resources/{resId}/history`: the id, then the record (404), then the perimeter (403). */
export async function readRecordHistory(
  deps: StatusDependencies,
  actor: Actor,
  resIdText: string | undefined,
): Promise<RecordHistory> {
  const resId = parseResIdParam(resIdText)
  if (!(await deps.statuses.recordExists(resId))) fail('DOCUMENT_NOT_FOUND')
  if (!(await deps.perimeter.allows(actor, resId))) fail('OUT_OF_PERIMETER')
  const entries = await deps.statuses.historyOf(resId, RECORD_HISTORY_TABLES)
  const visible = await visibleChronos(deps, actor, entries)
  return { history: entries.map((entry) => redactHistoryEntry(entry, visible)) }
}

/**
 * Of the chronos the history's link lines name, those the actor may read: every record bearing the chrono is in
 * her perimeter. A chrono no record bears any more, or one shared with a record she may not read, stays hidden.
 */
export async function visibleChronos(
  deps: { readonly statuses: Pick<RecordStatusStore, 'recordsBearing'>; readonly perimeter: RecordPerimeter },
  actor: Actor,
  entries: readonly Pick<HistoryEntry, 'info'>[],
): Promise<Set<string>> {
  const named = new Set(entries.map((entry) => linkedChronoOf(entry.info)).filter((c) => c !== null))
  const storable = [...named].filter(isStorableText)
  if (storable.length === 0) return new Set()
  const bearers = await deps.statuses.recordsBearing(storable)
  const allowed = await deps.perimeter.allowedAmong(
    actor,
    bearers.map((bearer) => bearer.resId),
  )
  const visible = new Set(bearers.map((bearer) => bearer.chrono))
  for (const bearer of bearers) if (!allowed.has(bearer.resId)) visible.delete(bearer.chrono)
  return new Set(storable.filter((chrono) => visible.has(chrono)))
}

/**
 * The identifiers the store can look for: a chrono PostgreSQL cannot hold (NUL, lone surrogate) matches no
 * record, so it is left out of the lookup and the check names it "not found".
 */
export function lockable(targets: StatusTargets): StatusTargets {
  return targets.kind === 'chrono'
    ? { kind: 'chrono', identifiers: targets.identifiers.filter(isStorableText) }
    : targets
}

/** The status use cases over their ports (storage implements them, the composition root wires them). */
export function createStatusUseCases(deps: StatusDependencies): StatusServices {
  return {
    update: (actor, body, meta) => changeStatus(deps, actor, body, meta),
    history: (actor, resId) => readRecordHistory(deps, actor, resId),
  }
}

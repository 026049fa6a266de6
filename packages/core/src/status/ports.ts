import type { Actor } from '../actors/actor.js'
import type { HistoryWording } from '../history/history-row.js'
import type { HistoryEntry } from './record-history.js'
import type { StatusUpdateMeta } from './status-services.js'
import type { TargetLookup } from './status-targets.js'
import type { StatusTargets } from './status-update-request.js'

/** A row of the status table as a status change needs it. */
export interface TargetStatus {
  readonly id: string
  /** status.is_closing: the record gets a closing date. */
  readonly closing: boolean
}

/** What a status change writes: the status on every record, and the history row each gets. */
export interface StatusChange {
  readonly status: TargetStatus
  readonly history: HistoryWording
}

/** Storage side of the status capability. */
export interface RecordStatusStore {
  /** The status of this identifier (case-sensitive), or null when the table has none. */
  findStatus(id: string): Promise<TargetStatus | null>
  /**
   * One transaction: locks the records `targets` name (identifiers that name none are left out) (in res_id order, so that overlapping changes wait for
   * each other instead of deadlocking), asks the perimeter which of them the actor may access, hands both to
   * `check` (which refuses by throwing, else names the records to change), then sets the status on those and
   * writes one history row each, at one instant read after the locks. A refusal writes nothing.
   */
  changeStatus(
    actor: Actor,
    targets: StatusTargets,
    check: (lookup: TargetLookup) => readonly number[],
    change: StatusChange,
    meta: StatusUpdateMeta,
  ): Promise<void>
  /** True when a record has this res_id. */
  recordExists(resId: number): Promise<boolean>
  /** The events written under the record's id in these history tables, newest first (date, then id). */
  historyOf(resId: number, tables: readonly string[]): Promise<HistoryEntry[]>
  /** The records that bear one of these chronos (alt_identifier), with the chrono each bears. */
  recordsBearing(chronos: readonly string[]): Promise<{ resId: number; chrono: string }[]>
}

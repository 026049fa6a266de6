import type { Actor } from '../actors/actor.js'
import type { HistoryRow } from '../history/history-row.js'
import type { LinkedResource } from './linked-resource.js'

/** The chrono of each record a link change locked (null: a record without one). */
export type LockedChronos = ReadonlyMap<number, string | null>

/** Storage side of the links between records. */
export interface LinksStore {
  /** The items of the record's list of linked records as stored (strings, or numbers other tools wrote), as text. */
  linkedIds(resId: number): Promise<string[]>
  /** The records of these ids in 20.10's shape (whether each converts to PDF is core's to say), in res_id order. */
  describe(resIds: readonly number[]): Promise<Omit<LinkedResource, 'canConvert'>[]>
  /**
   * One transaction: locks `resId` and the `linked` records in res_id order, adds to the record every id it
   * lacks (in the given order) and the record's id to each linked one that lacks it, and writes the history
   * rows `historyOf` words from the locked records' chronos.
   */
  link(
    actor: Actor,
    resId: number,
    linked: readonly number[],
    historyOf: (chronos: LockedChronos) => readonly HistoryRow[],
    meta: { readonly remoteIp?: string },
  ): Promise<void>
  /** The same for removing the link between `resId` and `id`, both ways. */
  unlink(
    actor: Actor,
    resId: number,
    id: number,
    historyOf: (chronos: LockedChronos) => readonly HistoryRow[],
    meta: { readonly remoteIp?: string },
  ): Promise<void>
}

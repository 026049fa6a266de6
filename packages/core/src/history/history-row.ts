/**
 * One history row of an event on a record or one of its parts (a note, a link, a version), as core words it
 * and storage writes it for the actor, from the caller's address.
 */
export interface HistoryRow {
  /** history.table_name: `res_letterbox`, `notes`, … */
  readonly tableName: string
  /** history.record_id: the id of the row the event is about. */
  readonly recordId: string | number
  /** ADD, UP, … */
  readonly eventType: string
  /** resup, noteadd, resourceModification, … */
  readonly eventId: string
  /** history.id_module: resource, notes, … */
  readonly module: string
  /** The message shown for the event. */
  readonly info: string
}

/** The wording of an event written once per record of a batch: a history row less its record. */
export type HistoryWording = Omit<HistoryRow, 'recordId'>

/*
 * The contributing guide's "To add an endpoint", followed by a newcomer: this file is what would go in
 * `packages/core/src/records/read-record-subject.ts` — the use case against a port, no I/O, checks in order.
 */
import { type Actor, fail, type RecordPerimeter } from '@mailroom/core'

/** The port: what the use case asks storage (one method). */
export interface RecordSubjectStore {
  /** The record's subject (null when it has none). */
  subjectOf(resId: number): Promise<string | null>
}

/** What the use case needs from the outside. */
export interface RecordSubjectDependencies {
  readonly subjects: RecordSubjectStore
  readonly perimeter: RecordPerimeter
}

/** `GET /rest/resources/{resId}/subject`: the id (400), the perimeter (403, also for a record that does not exist). */
export async function readRecordSubject(
  deps: RecordSubjectDependencies,
  actor: Actor,
  resIdText: string | undefined,
): Promise<{ subject: string | null }> {
  const resId = /^[0-9]{1,16}$/.test(resIdText ?? '') ? Number(resIdText) : Number.NaN
  if (!Number.isSafeInteger(resId) || resId < 1) fail('RES_ID_NOT_POSITIVE')
  if (!(await deps.perimeter.allows(actor, resId))) fail('OUT_OF_PERIMETER')
  return { subject: await deps.subjects.subjectOf(resId) }
}

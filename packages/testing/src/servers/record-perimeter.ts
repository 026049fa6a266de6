import type { RecordPerimeter } from '@mailroom/core'
import type { Mailroom } from '@mailroom/mailroom'
import { PerimeterGuard, recordPerimeterOf, SILENT_LOGGER } from '@mailroom/storage'

/**
 * Core's perimeter port over a test Mailroom's database, as storage wires it for its own use cases: what a
 * use case written in a test (the contributing guide's "add an endpoint", followed end to end) is handed.
 */
export function recordPerimeterOver(mailroom: Pick<Mailroom, 'db'>): RecordPerimeter {
  return recordPerimeterOf({ db: mailroom.db, perimeter: new PerimeterGuard(SILENT_LOGGER) })
}

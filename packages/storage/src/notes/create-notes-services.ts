import type { NotesServices } from '@mailroom/core'
import { createNotesUseCases } from '@mailroom/core/internal'
import { recordPerimeterOf } from '../perimeter/record-perimeter.js'
import type { StorageContext } from '../storage-context.js'
import { kyselyNotesStore } from './notes-store.js'

/**
 * Wires core's notes use cases (`POST /rest/notes`, `GET /rest/resources/{resId}/notes`, `GET /rest/notes/{id}`)
 * over kysely: core holds 20.10's order of checks and who sees a restricted note, the store the rows.
 */
export function createNotesServices(context: StorageContext): NotesServices {
  return createNotesUseCases({ notes: kyselyNotesStore(context), perimeter: recordPerimeterOf(context) })
}

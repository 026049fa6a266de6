import type { NotesDependencies } from '@mailroom/core'
import { recordPerimeterOf } from '../perimeter/record-perimeter.js'
import type { StorageContext } from '../storage-context.js'
import { kyselyNotesStore } from './notes-store.js'

/**
 * The ports of core's notes use cases (`POST /rest/notes`, `GET /rest/resources/{resId}/notes`,
 * `GET /rest/notes/{id}`) over kysely: the rows; core holds 20.10's order of checks and who sees a restricted note.
 */
export function notesPorts(context: StorageContext): NotesDependencies {
  return { notes: kyselyNotesStore(context), perimeter: recordPerimeterOf(context) }
}

import { MAX_LINKED_RESOURCES } from '../../links/link-limits.js'
import { defineErrors } from '../error-definition.js'

/**
 * Errors of the links between records (`/rest/resources/{resId}/linkedResources`), with Maarch 20.10's messages
 * and its statuses (403 where it answers 403, even for a malformed body).
 */
export const LINKS_ERRORS = defineErrors({
  // Also a malformed or unknown resId: 20.10 does not tell them apart.
  RESOURCE_OUT_OF_PERIMETER: { kind: 'forbidden', message: 'Resource out of perimeter' },
  LINKED_RESOURCES_NOT_ARRAY: { kind: 'forbidden', message: 'Body linkedResources is empty or not an array' },
  // Also an id that is not an integer or names no record.
  LINKED_RESOURCES_OUT_OF_PERIMETER: { kind: 'forbidden', message: 'Body linkedResources out of perimeter' },
  LINKED_RESOURCES_CONTAIN_RESOURCE: { kind: 'bad-request', message: 'Body linkedResources contains resource' },
  // Not in 20.10, which takes any number: one request never locks an unbounded set of records.
  LINKED_RESOURCES_TOO_MANY: {
    kind: 'bad-request',
    message: `Body linkedResources holds more than ${MAX_LINKED_RESOURCES} elements`,
  },
  UNLINKED_RESOURCE_OUT_OF_PERIMETER: { kind: 'forbidden', message: 'Resource to unlink out of perimeter' },
})

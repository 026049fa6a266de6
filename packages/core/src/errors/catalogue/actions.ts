import { MAX_ACTION_RESOURCES } from '../../actions/action-limits.js'
import { defineErrors } from '../error-definition.js'

/**
 * Errors of running actions on a basket's letters and of their locks (`/rest/resourcesList/.../actions/...`,
 * `.../locked`, `.../lock`, `.../unlock`), with Maarch 20.10's messages and statuses (`ResourceListController`,
 * `PreProcessActionController`). The list's own refusals (group, basket, user) are the baskets' (BASKET_*).
 */
export const ACTION_ERRORS = defineErrors({
  ACTION_RESOURCES_INVALID: { kind: 'bad-request', message: 'Data resources is empty or not an array' },
  // checkCloseWithFieldsAction words the same refusal with "Body".
  ACTION_CHECK_RESOURCES_INVALID: { kind: 'bad-request', message: 'Body resources is empty or not an array' },
  // 20.10 keeps the first 500 and drops the rest without a word; Mailroom refuses rather than act on part of a batch.
  ACTION_TOO_MANY_RESOURCES: {
    kind: 'bad-request',
    message: `Data resources holds more than ${MAX_ACTION_RESOURCES} elements; split the batch into several calls`,
  },
  ACTION_RESOURCE_INVALID: {
    kind: 'bad-request',
    message: ({ index }: { index: number }) => `Data resources[${index}] is not an integer greater than 0`,
  },
  ACTION_NOTE_INVALID: {
    kind: 'bad-request',
    message: 'Data note is not an object with a string content and an array of entity identifiers',
  },
  ACTION_DATA_INVALID: { kind: 'bad-request', message: 'Data data is not an object' },
  // 20.10 put the text into its SQL and crashed (500) when a basket action has a condition; Mailroom refuses it.
  ACTION_QUERY_RES_ID_INVALID: { kind: 'bad-request', message: 'Query resId is not an integer greater than 0' },
  ACTION_NOT_LINKED: { kind: 'bad-request', message: 'Action is not linked to this group basket' },
  ACTION_NOT_FOUND: { kind: 'bad-request', message: 'Action does not exist' },
  ACTION_COMPONENT_MISSING: { kind: 'bad-request', message: 'Action component does not exist' },
  ACTION_METHOD_UNKNOWN: { kind: 'bad-request', message: 'Action method does not exist' },
  // A component 20.10 runs that Mailroom does not (signatory books, registered mail, archiving…): refused, never
  // run as a plain status change, which would move the letters without the work the action stands for.
  ACTION_COMPONENT_NOT_SUPPORTED: { kind: 'bad-request', message: 'Action component not supported' },
  ACTION_RESOURCES_OUT_OF_BASKET: { kind: 'forbidden', message: 'Resources out of perimeter' },
  ACTION_REDIRECT_DATA_INVALID: {
    kind: 'bad-request',
    message: 'Data listInstances is not an array of items with item_id, item_type and item_mode',
  },
})

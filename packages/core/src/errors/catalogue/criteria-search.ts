import { defineErrors } from '../error-definition.js'

/** Longest piece of a caller's criterion name echoed in a message. */
const MAX_ECHO = 40

function named(name: string): string {
  return name.length > MAX_ECHO ? `${name.slice(0, MAX_ECHO)}...` : name
}

/** Errors of the structured search (`POST /rest/search`, Maarch 20.10's SearchController). */
export const CRITERIA_SEARCH_ERRORS = defineErrors({
  CRITERIA_SEARCH_BODY_INVALID: { kind: 'bad-request', message: 'Body is not an object of search criteria' },
  CRITERIA_SEARCH_CRITERION_UNKNOWN: {
    kind: 'bad-request',
    message: ({ name }: { name: string }) => `Body ${named(name)} is not a search criterion`,
  },
  CRITERIA_SEARCH_CUSTOM_FIELD_UNKNOWN: {
    kind: 'bad-request',
    message: ({ name }: { name: string }) => `Body ${named(name)} names no custom field of this installation`,
  },
  CRITERIA_SEARCH_CRITERION_NOT_OBJECT: {
    kind: 'bad-request',
    message: ({ name }: { name: string }) => `Body ${named(name)} must be an object {"values": ...}`,
  },
  CRITERIA_SEARCH_VALUES_INVALID: {
    kind: 'bad-request',
    message: ({ name, expected }: { name: string; expected: string }) =>
      `Body ${named(name)} values must be ${expected}`,
  },
  CRITERIA_SEARCH_QUERY_INVALID: {
    kind: 'bad-request',
    message: ({ name, expected }: { name: string; expected: string }) => `Query ${name} must be ${expected}`,
  },
})

import { defineErrors } from '../error-definition.js'

/** Errors of the digital-safe journal (clients-and-digital-safe.md A2/A7, issue #7). */
export const JOURNAL_ERRORS = defineErrors({
  /** No SERVICE-AUTH cookie, or a forged or expired one (upstream wording). */
  JOURNAL_UNAUTHENTICATED: { kind: 'unauthenticated', message: 'Missing authentication credential' },
  /** The caller has no entity in the owner organisation's tree (upstream wording). */
  JOURNAL_NOT_POSITIONED: { kind: 'forbidden', message: 'The user is not positioned on the organization.' },
  /** None of a non-root user's groups has the digital-safe right (organisation document, groups[].digitalSafe). */
  JOURNAL_NOT_ALLOWED: { kind: 'forbidden', message: 'The user has no group allowed to read the digital safe.' },
  /** The path names no safe (upstream wording of listing/count). */
  JOURNAL_SAFE_NOT_FOUND: {
    kind: 'not-found',
    message: (args: { owner: string }) => `Organization ${args.owner} doesn't exist`,
  },
  /** fromDate or toDate is not an ISO 8601 date or date-time (upstream wording). */
  JOURNAL_INVALID_DATE: { kind: 'bad-request', message: 'Invalid format date' },
  /** archiveId given together with a date or originator archive identifier bound. */
  JOURNAL_ARCHIVE_ID_COMBINED: {
    kind: 'bad-request',
    message: 'archiveId cannot be combined with dates or originator archive identifiers',
  },
  /** fromDate is later than toDate. */
  JOURNAL_DATE_RANGE_INVERTED: { kind: 'bad-request', message: 'fromDate must not be later than toDate' },
  /** limit is not an integer in range. */
  JOURNAL_INVALID_LIMIT: {
    kind: 'bad-request',
    message: (args: { max: number }) => `limit must be an integer between 1 and ${args.max}`,
  },
  /** after is malformed, or names no event of the safe (the adapter raises it after its look-up). */
  JOURNAL_INVALID_CURSOR: {
    kind: 'bad-request',
    message: 'after must be the eventId of an event of this digital safe',
  },
  /** A query parameter was given more than once. */
  JOURNAL_REPEATED_PARAMETER: {
    kind: 'bad-request',
    message: (args: { name: string }) => `Query parameter ${args.name} must be given at most once`,
  },
  /** `full` of the chain verification is neither true nor false. */
  JOURNAL_INVALID_FULL: { kind: 'bad-request', message: 'full must be true or false' },
  /** A non-root user asked the chain verification to walk the whole chain again (full=true): operators only. */
  JOURNAL_FULL_VERIFICATION_ROOT_ONLY: {
    kind: 'forbidden',
    message: 'Only root users may ask for a full verification of the chain (full=true)',
  },
  /** A record's file cannot be deposited: there is no top-level entity, hence no digital safe. */
  JOURNAL_NO_SAFE: { kind: 'internal', message: 'No digital safe exists: the entity tree is empty' },
  /** A builder received a value that cannot be stored (a programming error upstream of the journal). */
  JOURNAL_EVENT_MALFORMED: {
    kind: 'internal',
    message: (args: { field: string }) => `Journal event field ${args.field} is malformed`,
  },
})

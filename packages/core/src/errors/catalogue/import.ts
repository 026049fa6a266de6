import { defineErrors } from '../error-definition.js'

/** Errors of importing another installation (docs/migrating-from-maarch.md). */
export const IMPORT_ERRORS = defineErrors({
  MAARCH_VERSION_REFUSED: {
    kind: 'bad-request',
    message: (d: { version: string }) =>
      d.version === ''
        ? 'The source has no database_version parameter: it is not a Maarch Courrier 20.10 database, nothing was imported'
        : `The source is Maarch Courrier ${d.version}; only 20.10.x databases can be imported, nothing was imported`,
  },
  MAARCH_DEPOSITOR_UNKNOWN: {
    kind: 'bad-request',
    message: (d: { login: string; resId?: number; typist?: number }) =>
      d.resId === undefined
        ? `The fallback depositor ${d.login} is not a Mailroom user: name one with --depositor LOGIN (records whose typist was not imported are recorded and deposited in its name), nothing was imported`
        : `Record ${d.resId}'s typist ${d.typist} is not a Mailroom user and neither is the fallback depositor ${d.login}: name one with --depositor LOGIN; the records imported before this one stay, a rerun continues`,
  },
  MAARCH_NO_EARLIER_IMPORT: {
    kind: 'bad-request',
    message: (d: { source: string }) =>
      `No import from ${d.source} finished in this Mailroom: --since last has no cut-off to start from; run the full import first, or give --since TIMESTAMP; nothing was imported`,
  },
  MAARCH_SINCE_INVALID: {
    kind: 'bad-request',
    message: (d: { since: string }) =>
      `--since ${d.since} is neither "last" nor a date and time (2026-11-27T22:00:00Z); nothing was imported`,
  },
})

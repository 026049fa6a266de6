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
})

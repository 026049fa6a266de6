import { defineErrors } from '../error-definition.js'

/** Errors of the records capability. */
export const RECORDS_ERRORS = defineErrors({})

import { defineErrors } from '../error-definition.js'

/** Errors of the status capability. */
export const STATUS_ERRORS = defineErrors({})

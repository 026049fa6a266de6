import { defineErrors } from '../error-definition.js'

/** Errors of the entity read (interface §7). */
export const ENTITY_ERRORS = defineErrors({
  ENTITY_NOT_FOUND: { kind: 'bad-request', message: 'Entity not found' },
  ENTITY_ID_INVALID: {
    kind: 'bad-request',
    message: 'Parameter id must be a non-empty string of at most 32 characters',
  },
})

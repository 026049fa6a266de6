import { defineErrors } from '../error-definition.js'

/** Errors of the diffusion list templates' reads (`GET /rest/listTemplates/entities/{entityId}`), 20.10's words. */
export const LIST_TEMPLATE_ERRORS = defineErrors({
  // 20.10 answers so for an unknown serial id (and 500 for one that is not an integer: here the same 400).
  LIST_TEMPLATE_ENTITY_NOT_FOUND: { kind: 'bad-request', message: 'Entity does not exist' },
})

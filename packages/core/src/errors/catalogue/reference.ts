import { defineErrors } from '../error-definition.js'

/** Errors of the reference-data reads (issue 32: parameters, indexing models), with Maarch 20.10's messages. */
export const REFERENCE_ERRORS = defineErrors({
  PARAMETER_NOT_FOUND: { kind: 'bad-request', message: 'Parameter not found' },
  INDEXING_MODEL_NOT_FOUND: { kind: 'bad-request', message: 'Model not found' },
  INDEXING_MODEL_OUT_OF_PERIMETER: { kind: 'bad-request', message: 'Model out of perimeter' },
})

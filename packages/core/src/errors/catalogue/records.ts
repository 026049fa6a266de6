import { defineErrors } from '../error-definition.js'

type Field = { field: string }
type Item = { field: string; index: number }
type CustomField = { id: string }

/**
 * Errors of POST /rest/resources (interface Errors table; reference §2.1 step 3 for the messages the
 * interface does not give). Messages with a field name are shared by the fields they name.
 */
export const RECORDS_ERRORS = defineErrors({
  // The interface's message for any missing required parameter (modelId, status; earlier variant: status,
  // format, encodedFile, type_id, category_id) and for an empty body.
  CREATE_DATA_EMPTY: { kind: 'bad-request', message: 'Data is not set or empty' },
  CREATE_NOT_INTEGER: {
    kind: 'bad-request',
    message: ({ field }: Field) => `Body ${field} is empty or not an integer`,
  },
  CREATE_NOT_STRING: { kind: 'bad-request', message: ({ field }: Field) => `Body ${field} is empty or not a string` },
  CREATE_NOT_BOOLEAN: { kind: 'bad-request', message: ({ field }: Field) => `Body ${field} is not a boolean` },
  CREATE_NOT_TEXT: { kind: 'bad-request', message: ({ field }: Field) => `Body ${field} is not a string` },
  CREATE_NOT_OBJECT: { kind: 'bad-request', message: ({ field }: Field) => `Body ${field} is not an object` },
  EXTERNAL_ID_NOT_FLAT: {
    kind: 'bad-request',
    message: 'Body externalId values must be strings, numbers, booleans or null',
  },
  CREATE_NOT_ARRAY: { kind: 'bad-request', message: ({ field }: Field) => `Body ${field} is not an array` },
  CREATE_NOT_FOUND: { kind: 'bad-request', message: ({ field }: Field) => `Body ${field} does not exist` },
  MODEL_DISABLED: { kind: 'bad-request', message: 'Body modelId is disabled' },
  MODEL_NOT_PUBLIC: { kind: 'bad-request', message: 'Body modelId is not public' },
  MODEL_FILE_MANDATORY: { kind: 'bad-request', message: 'File is mandatory for this indexing model' },
  MODEL_FIELD_NOT_SET: { kind: 'bad-request', message: ({ field }: Field) => `Body ${field} is not set` },

  CUSTOM_FIELDS_NOT_FOUND: {
    kind: 'bad-request',
    message: 'Body customFields : One or more custom fields do not exist',
  },
  CUSTOM_FIELD_EMPTY: { kind: 'bad-request', message: ({ id }: CustomField) => `Body customFields[${id}] is empty` },
  CUSTOM_FIELD_WRONG_VALUE: {
    kind: 'bad-request',
    message: ({ id }: CustomField) => `Body customFields[${id}] has wrong value`,
  },
  CUSTOM_FIELD_NOT_ARRAY: {
    kind: 'bad-request',
    message: ({ id }: CustomField) => `Body customFields[${id}] is not an array`,
  },
  CUSTOM_FIELD_NOT_FLAT: {
    kind: 'bad-request',
    message: ({ id }: CustomField) => `Body customFields[${id}] nests deeper than a list of values or of flat objects`,
  },
  CUSTOM_FIELD_NOT_STRING: {
    kind: 'bad-request',
    message: ({ id }: CustomField) => `Body customFields[${id}] is not a string`,
  },
  CUSTOM_FIELD_NOT_NUMBER: {
    kind: 'bad-request',
    message: ({ id }: CustomField) => `Body customFields[${id}] is not a number`,
  },
  CUSTOM_FIELD_NOT_DATE: {
    kind: 'bad-request',
    message: ({ id }: CustomField) => `Body customFields[${id}] is not a date`,
  },
  FOLDERS_NOT_FOUND: {
    kind: 'bad-request',
    message: 'Body folders : One or more folders do not exist or are out of perimeter',
  },
  TAGS_NOT_FOUND: { kind: 'bad-request', message: 'Body tags : One or more tags do not exist' },

  LIST_ITEM_NOT_OBJECT: {
    kind: 'bad-request',
    message: ({ field, index }: Item) => `Body ${field}[${index}] is not an array`,
  },
  LIST_ITEM_ID_INVALID: {
    kind: 'bad-request',
    message: ({ field, index }: Item) => `Body ${field}[${index}][id] is empty or not an integer`,
  },
  LIST_ITEM_TYPE_INVALID: {
    kind: 'bad-request',
    message: ({ field, index }: Item) => `Body ${field}[${index}] type is not valid`,
  },
  LIST_ITEM_MODE_INVALID: {
    kind: 'bad-request',
    message: ({ field, index }: Item) => `Body ${field}[${index}] mode is empty or not a string`,
  },
  LIST_ITEM_NOT_FOUND: {
    kind: 'bad-request',
    message: ({ field, index }: Item) => `Body ${field}[${index}] id does not exist`,
  },
  DIFFUSION_MULTIPLE_DEST: { kind: 'bad-request', message: 'Body diffusionList has multiple dest' },
  DIFFUSION_NO_DEST: { kind: 'bad-request', message: 'Body diffusion has no dest' },

  INITIATOR_NOT_ALLOWED: { kind: 'bad-request', message: 'Body initiator does not belong to your entities' },
  DESTINATION_NOT_ALLOWED: { kind: 'bad-request', message: 'Body destination is out of your indexing parameters' },

  DATE_INVALID: { kind: 'bad-request', message: ({ field }: Field) => `Body ${field} is not a date` },
  DOCUMENT_DATE_IN_FUTURE: { kind: 'bad-request', message: 'Body documentDate cannot be a date in the future' },
  DATE_OUT_OF_RANGE: { kind: 'bad-request', message: ({ field }: Field) => `Body ${field} is not a valid date` },

  // Shown to the caller as it is (interface: 500 with a message starting with [ResController create]);
  // the cause goes to the log only, never SQL or paths.
  CREATE_FAILED: {
    kind: 'internal',
    message: ({ stage }: { stage: 'controlResource' | 'storeResource' }) =>
      `[ResController create] [${stage}] Resource could not be created`,
  },
  STORAGE_NOT_WRITABLE: {
    kind: 'internal',
    message: '[ResController create] [storeResource] Document storage is full or not writable',
  },
  NO_WRITABLE_DOCSERVER: {
    kind: 'internal',
    message: '[ResController create] [storeResource] No available Docserver with type DOC',
  },
})

import { defineErrors } from '../error-definition.js'

/**
 * Errors of the content capability: file checks on create, content / originalContent / content/{version}
 * reads (interface Errors table, reference §2.1 item 7 and §4), conversion and watermark.
 */
export const CONTENT_ERRORS = defineErrors({
  // Shared with every record operation (status update, reads): one code, one message.
  OUT_OF_PERIMETER: { kind: 'forbidden', message: 'Document out of perimeter' },
  DOCUMENT_NOT_FOUND: { kind: 'bad-request', message: 'Document does not exist' },
  DOCUMENT_HAS_NO_FILE: { kind: 'bad-request', message: 'Document has no file' },
  FINGERPRINT_MISMATCH: { kind: 'bad-request', message: 'Fingerprints do not match' },
  FILE_UNREADABLE: { kind: 'bad-request', message: 'could not decode encoded data, or open target file' },
  FILE_INFO_UNAVAILABLE: { kind: 'bad-request', message: 'could not compute mime type or file size' },
  DOCSERVER_NOT_FOUND: { kind: 'not-found', message: 'Docserver does not exist' },
  DOCUMENT_NOT_IN_DOCSERVER: { kind: 'not-found', message: 'Document not found in docserver' },
  // Shown to the caller as it is, although its kind is internal (interface: 500 with this message).
  DOCSERVER_READ_FAILED: { kind: 'internal', message: 'Failed to get document on docserver' },
  CONVERSION_FAILED: { kind: 'internal', message: ({ detail }: { detail: string }) => `Conversion error : ${detail}` },
  CONVERSION_QUEUE_FULL: {
    kind: 'unavailable',
    message: 'Conversion error : too many conversions waiting, try again later',
  },

  SIGNED_VERSION_NOT_BOOLEAN: { kind: 'forbidden', message: 'signedVersion param is not a boolean' },
  RES_ID_NOT_POSITIVE: { kind: 'bad-request', message: 'Parameter resId must be greater than 0' },
  VERSION_NOT_POSITIVE: { kind: 'bad-request', message: 'Parameter version must be greater than 0' },
  VERSION_INCORRECT: { kind: 'bad-request', message: 'Incorrect version' },
  // The reference message says TYPE where the accepted values are PDF, SIGN and NOTE; kept verbatim.
  VERSION_TYPE_INVALID: {
    kind: 'bad-request',
    message: 'Parameter type can not be empty and should be PDF, TYPE, NOTE',
  },
  VERSION_TYPE_HAS_NO_FILE: { kind: 'bad-request', message: 'Type has no file' },

  FORMAT_EMPTY: { kind: 'bad-request', message: 'Body format is empty or not a string' },
  FORMAT_NOT_ALLOWED: {
    kind: 'bad-request',
    message: ({ format, mimeType }: { format: string; mimeType: string }) =>
      `Format with this mimeType is not allowed : ${format} ${mimeType}`,
  },
  ENCODED_FILE_INVALID: { kind: 'bad-request', message: 'Body encodedFile is not valid base64' },

  PDF_ENCRYPTED: { kind: 'internal', message: 'PDF is encrypted and cannot be watermarked' },
  PDF_UNREADABLE: { kind: 'internal', message: 'PDF is damaged and cannot be read' },
  WATERMARK_CONFIG_INVALID: {
    kind: 'internal',
    message: ({ detail }: { detail: string }) => `Watermark configuration is not valid: ${detail}`,
  },
})

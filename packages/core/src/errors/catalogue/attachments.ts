import { defineErrors } from '../error-definition.js'

type Field = { field: string }
type Length = { field: string; max: number }

/** 20.10 answers it 400 on a read outside the perimeter and 403 to a removal without the right (one message). */
const ATTACHMENT_OUT_OF_PERIMETER_MESSAGE = 'Attachment out of perimeter'

/**
 * Errors of the attachment routes (NOTES.md §2 "Attachments": Maarch 20.10's messages and statuses, odd ones
 * kept for compatibility: `Attachment out of perimeter` is 400, `Attachment not found` is 403).
 */
export const ATTACHMENT_ERRORS = defineErrors({
  ATTACHMENT_FILE_EMPTY: { kind: 'bad-request', message: 'Body encodedFile is empty' },
  ATTACHMENT_TYPE_EMPTY: { kind: 'bad-request', message: 'Body type is empty or not a string' },
  ATTACHMENT_STATUS_INVALID: { kind: 'bad-request', message: 'Body status can only be A_TRA, TRA or SEND_MASS' },
  ATTACHMENT_MASTER_OUT_OF_PERIMETER: { kind: 'bad-request', message: 'Body resIdMaster is out of perimeter' },
  ATTACHMENT_TYPE_UNKNOWN: { kind: 'bad-request', message: 'Body type does not exist' },
  ATTACHMENT_SIGNED_RESPONSE_WITHOUT_ORIGIN: {
    kind: 'bad-request',
    message: 'Body type is signed_response and body originId is empty',
  },
  ATTACHMENT_NOT_INTEGER: { kind: 'bad-request', message: ({ field }: Field) => `Body ${field} is not an integer` },
  ATTACHMENT_ORIGIN_UNKNOWN: { kind: 'bad-request', message: 'Body originId does not exist' },
  ATTACHMENT_ORIGIN_OTHER_MASTER: { kind: 'bad-request', message: 'Body resIdMaster is different from origin' },
  ATTACHMENT_ORIGIN_STATUS: { kind: 'bad-request', message: 'Body originId has not an authorized status' },
  ATTACHMENT_ORIGIN_IS_VERSION: {
    kind: 'bad-request',
    message: 'Body originId can not be a version, it must be the original version',
  },
  ATTACHMENT_RECIPIENT_TYPE_INVALID: {
    kind: 'bad-request',
    message: 'Body recipientType is empty or not in [user, contact]',
  },
  ATTACHMENT_RECIPIENT_UNKNOWN: { kind: 'bad-request', message: 'Body recipientId does not exist' },
  // Mailroom's own checks where 20.10 stores anything or answers 500 (NOTES.md §4).
  ATTACHMENT_LENGTH_INVALID: {
    kind: 'bad-request',
    message: ({ field, max }: Length) => `Body ${field} length is not valid (1..${max})`,
  },

  ATTACHMENT_DOES_NOT_EXIST: { kind: 'bad-request', message: 'Attachment does not exist' },
  ATTACHMENT_OUT_OF_PERIMETER: { kind: 'bad-request', message: ATTACHMENT_OUT_OF_PERIMETER_MESSAGE },
  ATTACHMENT_NOT_FOUND: { kind: 'forbidden', message: 'Attachment not found' },
  ATTACHMENT_QUERY_LIMIT_INVALID: { kind: 'forbidden', message: 'Query limit is not an integer' },
  // DELETE /rest/attachments/{id} (attachments-manage.json).
  ATTACHMENT_ROUTE_ID_INVALID: { kind: 'bad-request', message: 'Route id must be an integer val' },
  ATTACHMENT_RECORD_MANAGEMENT: {
    kind: 'bad-request',
    message: 'Can not delete attachment use for record_management',
  },
  /** Neither its typist nor holding manage_attachments. */
  ATTACHMENT_NOT_MANAGEABLE: { kind: 'forbidden', message: ATTACHMENT_OUT_OF_PERIMETER_MESSAGE },
})

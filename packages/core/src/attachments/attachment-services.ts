import type { Actor } from '../actors/actor.js'
import type { ContentReadMeta, ContentResult } from '../content/content-services.js'
import type { AttachmentTypeDefinition } from '../organisation/organisation-schema.js'

/** `GET /rest/attachmentsTypes`: the types by code, as Maarch 20.10 answers them. */
export interface AttachmentTypesBody {
  readonly attachmentsTypes: Readonly<
    Record<
      string,
      { label: string; icon: string; sign: boolean; chrono: boolean; attachInMail: boolean; show: boolean }
    >
  >
}

/** One attachment in `GET /rest/resources/{resId}/attachments`. */
export interface AttachmentListItem {
  readonly resId: number
  readonly chrono: string | null
  readonly title: string | null
  readonly typist: number
  readonly modifiedBy: string
  readonly creationDate: string
  readonly modificationDate: string | null
  readonly relation: number
  readonly status: string
  readonly type: string
  readonly inSignatureBook: boolean
  readonly inSendAttach: boolean
  readonly typistLabel: string
  readonly typeLabel: string
  readonly canConvert: boolean
}

/** `GET /rest/resources/{resId}/attachments`. */
export interface AttachmentListBody {
  readonly attachments: readonly AttachmentListItem[]
  readonly mailevaEnabled: boolean
}

/** `GET /rest/attachments/{id}`. */
export interface AttachmentBody {
  readonly resId: number
  readonly resIdMaster: number
  readonly status: string
  readonly title: string | null
  readonly chrono: string | null
  readonly typist: number
  readonly modifiedBy: string
  readonly relation: number
  readonly type: string
  readonly recipientId: number | null
  readonly recipientType: string | null
  readonly originId: number | null
  readonly creationDate: string
  readonly modificationDate: string | null
  readonly validationDate: string | null
  readonly format: string
  readonly fulltextResult: string | null
  readonly inSignatureBook: boolean
  readonly inSendAttach: boolean
  readonly typistLabel: string
  readonly typeLabel: string
  /** The other versions of the same attachment, highest relation first. */
  readonly versions: readonly { readonly resId: number; readonly relation: number }[]
}

/** `GET /rest/attachments/{id}/content?mode=base64`. */
export interface AttachmentContentBase64Body {
  readonly encodedDocument: string
  readonly originalFormat: string
  readonly filename: string
  readonly mimeType: string
  readonly signatoryId: number | null
}

/** `GET /rest/attachments/{id}/originalContent?mode=base64`. */
export interface AttachmentOriginalBase64Body {
  readonly encodedDocument: string
  readonly extension: string
  readonly mimeType: string
  readonly filename: string
}

/** Use cases of the attachments capability. Path, query and body values are passed as received. */
export interface AttachmentServices {
  /** `GET /rest/attachmentsTypes`. */
  types(actor: Actor): Promise<AttachmentTypesBody>
  /** `POST /rest/attachments`: checks in Maarch 20.10's order, then the file and the row, whole or not at all. */
  create(actor: Actor, body: unknown, meta?: ContentReadMeta): Promise<{ id: number }>
  /** `GET /rest/resources/{resId}/attachments`. */
  listOfRecord(actor: Actor, resId: string | undefined, query: { limit?: string }): Promise<AttachmentListBody>
  /**
   * `DELETE /rest/attachments/{id}`: its typist or a holder of `manage_attachments` removes it with its other
   * versions (status DEL), in 20.10's order of checks.
   */
  remove(actor: Actor, id: string | undefined, meta?: ContentReadMeta): Promise<void>
  /** `GET /rest/attachments/{id}`. */
  read(actor: Actor, id: string | undefined): Promise<AttachmentBody>
  /** `GET /rest/attachments/{id}/content`: the PDF, watermarked like a record's content. */
  content(
    actor: Actor,
    id: string | undefined,
    query: { mode?: string },
    meta?: ContentReadMeta,
  ): Promise<ContentResult<AttachmentContentBase64Body>>
  /** `GET /rest/attachments/{id}/originalContent`: the stored file. */
  originalContent(
    actor: Actor,
    id: string | undefined,
    query: { mode?: string },
    meta?: ContentReadMeta,
  ): Promise<ContentResult<AttachmentOriginalBase64Body>>
}

/** The types as `GET /rest/attachmentsTypes` answers them, in the document's order. */
export function attachmentTypesBody(types: readonly AttachmentTypeDefinition[]): AttachmentTypesBody {
  return {
    attachmentsTypes: Object.fromEntries(
      types.map((t) => [
        t.id,
        { label: t.label, icon: t.icon, sign: t.sign, chrono: t.chrono, attachInMail: t.attachInMail, show: t.show },
      ]),
    ),
  }
}

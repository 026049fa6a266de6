import { type Actor, isRoot } from '../actors/actor.js'
import { contentFilename } from '../content/content-filename.js'
import type { ContentFile, ContentReadStore, VerifiedFile } from '../content/content-read-ports.js'
import type { ContentReadMeta } from '../content/content-services.js'
import { servedMimeType } from '../content/content-view.js'
import { canConvertToPdf, normaliseFormat } from '../content/formats.js'
import type { MimeTypeSniffer, PdfConverter } from '../content/ports.js'
import {
  base64Of,
  contentViewHistory,
  converterFor,
  convertToPdf,
  type WatermarkDependencies,
  watermarkPdf,
} from '../content/serve-file.js'
import { fail } from '../errors/domain-error.js'
import type { RecordPerimeter } from '../perimeter/ports.js'
import { databaseIdOf } from '../request-values/database-id.js'
import type { AttachmentBody, AttachmentListItem, AttachmentServices } from './attachment-services.js'
import { parseAttachmentId } from './create-attachment.js'

/** An attachment whose file a content route serves (a superseded version, OBS, is served too). */
export interface ServableAttachment<F extends ContentFile> {
  readonly id: number
  readonly resIdMaster: number
  readonly title: string | null
  readonly format: string
  readonly relation: number
  readonly status: string
  readonly signatoryUserSerialId: number | null
  readonly file: F
}

/** One row of a record's attachment list, as stored (core adds whether it converts). */
export type StoredAttachmentListItem = Omit<AttachmentListItem, 'canConvert'> & { readonly format: string }

/** Storage side of the attachment reads. */
export interface AttachmentReadStore<F extends ContentFile> {
  /** True when a record has this res_id. */
  recordExists(resId: number): Promise<boolean>
  /**
   * The record's attachments a list shows (neither deleted, superseded nor signed responses), last changed
   * first, at most `limit` when it is given.
   */
  listOf(resId: number, limit: number | null): Promise<readonly StoredAttachmentListItem[]>
  /** An attachment neither deleted nor superseded, without its other versions; null when there is none. */
  describe(id: number): Promise<Omit<AttachmentBody, 'versions'> | null>
  /** The versions of the attachment that `originalId` started, `id` left out, highest relation first. */
  otherVersions(id: number, originalId: number): Promise<AttachmentBody['versions']>
  /** An attachment that is not deleted, with its stored file; null when there is none. */
  servable(id: number): Promise<ServableAttachment<F> | null>
}

/** What the attachment reads need from the outside. */
export interface AttachmentReadDependencies<F extends ContentFile> extends WatermarkDependencies {
  readonly attachments: AttachmentReadStore<F>
  /** The records' file reads: an attachment's file is read, checked and traced on its master record. */
  readonly files: ContentReadStore<F>
  readonly perimeter: RecordPerimeter
  readonly converter: PdfConverter | null
  readonly sniffer: MimeTypeSniffer
}

/**
 * 20.10 answers `modificationDate` null for an attachment never modified: one whose modification date is its
 * creation date (the column's default), as `AttachmentController` compares them.
 */
export function withUnmodifiedAsNull<T extends { creationDate: string; modificationDate: string | null }>(row: T): T {
  return row.modificationDate === row.creationDate ? { ...row, modificationDate: null } : row
}

/** The four attachment reads of AttachmentServices. */
export type AttachmentReads = Pick<AttachmentServices, 'listOfRecord' | 'read' | 'content' | 'originalContent'>

/**
 * The attachment reads over their ports, in Maarch 20.10's order: the list of a record's attachments, one
 * attachment with its versions, and its files (the PDF, watermarked like a record's content, and the stored
 * original), each file re-hashed against its fingerprint, journalled as a consultation of the master record
 * and leaving its VIEW history row.
 */
export function createAttachmentReads<F extends ContentFile>(deps: AttachmentReadDependencies<F>): AttachmentReads {
  const { attachments, files } = deps
  const inPerimeter = async (actor: Actor, resId: number) => isRoot(actor) || deps.perimeter.allows(actor, resId)

  /** The checks of both content routes (20.10): the id, the row (OBS versions are served), the perimeter. */
  async function servable(actor: Actor, idText: string | undefined): Promise<ServableAttachment<F>> {
    const attachment = (await attachments.servable(parseAttachmentId(idText))) ?? fail('ATTACHMENT_NOT_FOUND')
    if (!(await inPerimeter(actor, attachment.resIdMaster))) fail('OUT_OF_PERIMETER')
    return attachment
  }

  function readFile(actor: Actor, attachment: ServableAttachment<F>): Promise<VerifiedFile> {
    return files.read(actor, attachment.resIdMaster, attachment.file, `attachment ${attachment.id}`)
  }

  function trace(actor: Actor, attachment: ServableAttachment<F>, file: VerifiedFile, meta: ContentReadMeta) {
    const resId = attachment.resIdMaster
    return files.trace({ actor, resId, digest: file.digest, history: contentViewHistory(resId), ...meta })
  }

  return {
    /** 20.10 answers 403 `Document out of perimeter` for any bad id. */
    async listOfRecord(actor, resIdText, query) {
      const resId = databaseIdOf(resIdText, 'bigint') ?? fail('OUT_OF_PERIMETER')
      if (!(await attachments.recordExists(resId)) || !(await inPerimeter(actor, resId))) fail('OUT_OF_PERIMETER')
      let limit: number | null = null
      if (query.limit !== undefined && query.limit !== '') {
        if (!/^[0-9]{1,9}$/.test(query.limit)) fail('ATTACHMENT_QUERY_LIMIT_INVALID')
        limit = Number(query.limit)
      }
      const rows = await attachments.listOf(resId, limit !== null && limit > 0 ? limit : null)
      return {
        attachments: rows.map(({ format, ...item }) => ({
          ...withUnmodifiedAsNull(item),
          canConvert: canConvertToPdf(format),
        })),
        mailevaEnabled: false,
      }
    },

    /** A superseded version (OBS) does not exist for this route, as in 20.10. */
    async read(actor, idText) {
      const id = parseAttachmentId(idText)
      const attachment = (await attachments.describe(id)) ?? fail('ATTACHMENT_DOES_NOT_EXIST')
      if (!(await inPerimeter(actor, attachment.resIdMaster))) fail('ATTACHMENT_OUT_OF_PERIMETER')
      const versions = await attachments.otherVersions(id, attachment.originId ?? attachment.resId)
      return { ...withUnmodifiedAsNull(attachment), versions }
    },

    /** The PDF (the file itself, or its conversion), watermarked. */
    async content(actor, idText, query, meta = {}) {
      const attachment = await servable(actor, idText)
      const original = await readFile(actor, attachment)
      const format = normaliseFormat(attachment.format)
      const pdf =
        format === 'pdf'
          ? original.bytes
          : await convertToPdf(converterFor(deps.converter, format), original.bytes, format)
      const served = deps.settings.watermark.enabled
        ? await watermarkPdf(
            deps,
            { bytes: pdf, digest: original.digest },
            attachment.resIdMaster,
            await files.recordColumns(attachment.resIdMaster),
          )
        : pdf
      await trace(actor, attachment, original, meta)
      const filename = contentFilename(attachment.title ?? '', 'pdf')
      if (query.mode === 'base64') {
        return {
          kind: 'json',
          body: {
            encodedDocument: base64Of(served),
            originalFormat: attachment.format,
            filename,
            mimeType: 'application/pdf',
            signatoryId: attachment.signatoryUserSerialId,
          },
        }
      }
      return {
        kind: 'file',
        file: { mimeType: 'application/pdf', filename, disposition: 'attachment', size: served.length, body: served },
      }
    },

    /** The stored file (`_V<relation>` in its name past the first). */
    async originalContent(actor, idText, query, meta = {}) {
      const attachment = await servable(actor, idText)
      const original = await readFile(actor, attachment)
      const extension = normaliseFormat(attachment.format)
      const mimeType = servedMimeType(await deps.sniffer.sniff(original.bytes, extension), extension)
      await trace(actor, attachment, original, meta)
      const bytes = original.bytes
      const title = attachment.title ?? ''
      if (query.mode === 'base64') {
        // 20.10 numbers the name of a version, and of an original once it has one (then OBS).
        const numbered = attachment.relation > 1 || attachment.status === 'OBS'
        return {
          kind: 'json',
          body: {
            encodedDocument: base64Of(bytes),
            extension,
            mimeType,
            filename: contentFilename(numbered ? `${title}_V${attachment.relation}` : title, extension),
          },
        }
      }
      return {
        kind: 'file',
        file: {
          mimeType,
          filename: contentFilename(title, extension),
          disposition: 'attachment',
          size: bytes.length,
          body: bytes,
        },
      }
    },
  }
}

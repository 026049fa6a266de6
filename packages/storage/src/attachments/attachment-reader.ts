import type {
  Actor,
  AttachmentBody,
  AttachmentContentBase64Body,
  AttachmentListBody,
  AttachmentOriginalBase64Body,
  ContentReadMeta,
  ContentResult,
} from '@mailroom/core'
import { domainError, fail, isDomainError } from '@mailroom/core'
import {
  canConvertToPdf,
  contentFilename,
  conversionKind,
  databaseIdOf,
  isRoot,
  normaliseFormat,
  parseAttachmentId,
  servedMimeType,
} from '@mailroom/core/internal'
import { type Kysely, type Selectable, sql } from 'kysely'
import type { ContentReader } from '../content/content-reader.js'
import type { Database, ResAttachmentsTable } from '../database/schema.js'
import type { StorageContext } from '../storage-context.js'

type AttachmentRow = Selectable<ResAttachmentsTable>

/** Maarch 20.10 writes timestamps as PostgreSQL prints them (`2026-11-26 17:55:39.988838`); here in UTC. */
const timestampText = (column: string) =>
  sql<string>`to_char(${sql.ref(column)} at time zone 'UTC', 'YYYY-MM-DD HH24:MI:SS.US')`
const secondsText = (column: string) =>
  sql<string | null>`to_char(${sql.ref(column)} at time zone 'UTC', 'YYYY-MM-DD HH24:MI:SS')`

const label = (firstname: string | null, lastname: string | null) => [firstname, lastname].filter(Boolean).join(' ')

/**
 * The attachment reads: the list of a record's attachments, one attachment with its versions, and its files
 * (PDF, watermarked like a record's content, and the stored original) through the records' ContentReader, so
 * every read re-hashes the file against its fingerprint, is journalled as a consultation of the master record
 * and leaves its VIEW history row.
 */
export class AttachmentReader {
  readonly #context: StorageContext
  readonly #content: ContentReader

  constructor(context: StorageContext, content: ContentReader) {
    this.#context = context
    this.#content = content
  }

  get #db(): Kysely<Database> {
    return this.#context.db
  }

  async #inPerimeter(actor: Actor, resId: number): Promise<boolean> {
    return isRoot(actor) || this.#context.perimeter.allows(this.#db, actor, resId)
  }

  /** `GET /rest/resources/{resId}/attachments`: 20.10 answers 403 `Document out of perimeter` for any bad id. */
  async listOfRecord(
    actor: Actor,
    resIdText: string | undefined,
    query: { limit?: string },
  ): Promise<AttachmentListBody> {
    const resId = databaseIdOf(resIdText, 'bigint') ?? fail('OUT_OF_PERIMETER')
    const record = await this.#db
      .selectFrom('res_letterbox')
      .select('res_id')
      .where('res_id', '=', resId)
      .executeTakeFirst()
    if (!record || !(await this.#inPerimeter(actor, resId))) fail('OUT_OF_PERIMETER')
    let limit: number | null = null
    if (query.limit !== undefined && query.limit !== '') {
      if (!/^[0-9]{1,9}$/.test(query.limit)) fail('ATTACHMENT_QUERY_LIMIT_INVALID')
      limit = Number(query.limit)
    }
    let select = this.#db
      .selectFrom('res_attachments as a')
      .leftJoin('users as u', 'u.id', 'a.typist')
      .leftJoin('attachment_types as t', 't.type_id', 'a.attachment_type')
      .select([
        'a.res_id',
        'a.identifier',
        'a.title',
        'a.typist',
        'a.relation',
        'a.status',
        'a.attachment_type',
        'a.in_signature_book',
        'a.in_send_attach',
        'a.format',
        'u.firstname',
        'u.lastname',
        't.label as type_label',
        timestampText('a.creation_date').as('creation_text'),
        timestampText('a.modification_date').as('modification_text'),
      ])
      .where('a.res_id_master', '=', resId)
      .where('a.status', 'not in', ['DEL', 'OBS'])
      .where('a.attachment_type', '<>', 'signed_response')
      .orderBy(sql`coalesce(a.modification_date, a.creation_date)`, 'desc')
      .orderBy('a.res_id', 'desc')
    if (limit !== null && limit > 0) select = select.limit(limit)
    const rows = await select.execute()
    return {
      attachments: rows.map((row) => ({
        resId: Number(row.res_id),
        chrono: row.identifier,
        title: row.title,
        typist: row.typist,
        modifiedBy: '',
        creationDate: row.creation_text,
        modificationDate: row.modification_text,
        relation: row.relation,
        status: row.status,
        type: row.attachment_type,
        inSignatureBook: row.in_signature_book,
        inSendAttach: row.in_send_attach,
        typistLabel: label(row.firstname, row.lastname),
        typeLabel: row.type_label ?? row.attachment_type,
        canConvert: canConvertToPdf(row.format),
      })),
      mailevaEnabled: false,
    }
  }

  /** `GET /rest/attachments/{id}`: a superseded version (OBS) does not exist for this route, as in 20.10. */
  async read(actor: Actor, idText: string | undefined): Promise<AttachmentBody> {
    const id = parseAttachmentId(idText)
    const row = await this.#db
      .selectFrom('res_attachments as a')
      .leftJoin('users as u', 'u.id', 'a.typist')
      .leftJoin('users as m', 'm.id', 'a.modified_by')
      .leftJoin('attachment_types as t', 't.type_id', 'a.attachment_type')
      .selectAll('a')
      .select([
        'u.firstname',
        'u.lastname',
        'm.firstname as modifier_firstname',
        'm.lastname as modifier_lastname',
        't.label as type_label',
        timestampText('a.creation_date').as('creation_text'),
        timestampText('a.modification_date').as('modification_text'),
        secondsText('a.validation_date').as('validation_text'),
      ])
      .where('a.res_id', '=', id)
      .where('a.status', 'not in', ['DEL', 'OBS'])
      .executeTakeFirst()
    if (!row) fail('ATTACHMENT_DOES_NOT_EXIST')
    if (!(await this.#inPerimeter(actor, Number(row.res_id_master)))) fail('ATTACHMENT_OUT_OF_PERIMETER')
    const original = row.origin_id === null ? Number(row.res_id) : Number(row.origin_id)
    const versions = await this.#db
      .selectFrom('res_attachments')
      .select(['res_id', 'relation'])
      .where((eb) => eb.or([eb('res_id', '=', original), eb('origin_id', '=', original)]))
      .where('res_id', '<>', id)
      .where('status', '<>', 'DEL')
      .orderBy('relation', 'desc')
      .execute()
    return {
      resId: Number(row.res_id),
      resIdMaster: Number(row.res_id_master),
      status: row.status,
      title: row.title,
      chrono: row.identifier,
      typist: row.typist,
      modifiedBy: row.modified_by === null ? '' : label(row.modifier_firstname, row.modifier_lastname),
      relation: row.relation,
      type: row.attachment_type,
      recipientId: row.recipient_id,
      recipientType: row.recipient_type,
      originId: row.origin_id === null ? null : Number(row.origin_id),
      creationDate: row.creation_text,
      modificationDate: row.modification_text,
      validationDate: row.validation_text,
      format: row.format,
      fulltextResult: row.fulltext_result,
      inSignatureBook: row.in_signature_book,
      inSendAttach: row.in_send_attach,
      typistLabel: label(row.firstname, row.lastname),
      typeLabel: row.type_label ?? row.attachment_type,
      versions: versions.map((v) => ({ resId: Number(v.res_id), relation: v.relation })),
    }
  }

  /** The checks of both content routes (20.10): the id, the row (OBS versions are served), the perimeter. */
  async #servable(actor: Actor, idText: string | undefined): Promise<AttachmentRow> {
    const id = parseAttachmentId(idText)
    const row = await this.#db
      .selectFrom('res_attachments')
      .selectAll()
      .where('res_id', '=', id)
      .where('status', '<>', 'DEL')
      .executeTakeFirst()
    if (!row) fail('ATTACHMENT_NOT_FOUND')
    if (!(await this.#inPerimeter(actor, Number(row.res_id_master)))) fail('OUT_OF_PERIMETER')
    return row
  }

  #file(actor: Actor, row: AttachmentRow) {
    return this.#content.readAttachmentFile(actor, {
      id: Number(row.res_id),
      resIdMaster: Number(row.res_id_master),
      ref: row,
    })
  }

  /** `GET /rest/attachments/{id}/content`: the PDF (the file itself, or its conversion), watermarked. */
  async content(
    actor: Actor,
    idText: string | undefined,
    query: { mode?: string },
    meta: ContentReadMeta = {},
  ): Promise<ContentResult<AttachmentContentBase64Body>> {
    const row = await this.#servable(actor, idText)
    const original = await this.#file(actor, row)
    const format = normaliseFormat(row.format)
    let pdf = original
    if (format !== 'pdf') {
      if (conversionKind(format) === 'none')
        fail('CONVERSION_FAILED', { detail: `format ${format} cannot be converted to PDF` })
      const converter = this.#context.converter
      if (!converter) fail('CONVERSION_FAILED', { detail: 'conversion to PDF is disabled on this server' })
      try {
        const bytes = await converter.convert({ bytes: original.bytes, format })
        pdf = { bytes, digest: original.digest }
      } catch (error) {
        if (isDomainError(error)) throw error
        throw domainError('CONVERSION_FAILED', { detail: error instanceof Error ? error.message : String(error) })
      }
    }
    const served = this.#content.watermarks
      ? await this.#content.watermarkForRecord(pdf, Number(row.res_id_master))
      : pdf.bytes
    await this.#content.attachmentRead(actor, Number(row.res_id_master), original.digest, meta)
    const filename = contentFilename(row.title ?? '', 'pdf')
    if (query.mode === 'base64') {
      return {
        kind: 'json',
        body: {
          encodedDocument: Buffer.from(served.buffer, served.byteOffset, served.byteLength).toString('base64'),
          originalFormat: row.format,
          filename,
          mimeType: 'application/pdf',
          signatoryId: row.signatory_user_serial_id,
        },
      }
    }
    return {
      kind: 'file',
      file: { mimeType: 'application/pdf', filename, disposition: 'attachment', size: served.length, body: served },
    }
  }

  /** `GET /rest/attachments/{id}/originalContent`: the stored file (`_V<relation>` in its name past the first). */
  async originalContent(
    actor: Actor,
    idText: string | undefined,
    query: { mode?: string },
    meta: ContentReadMeta = {},
  ): Promise<ContentResult<AttachmentOriginalBase64Body>> {
    const row = await this.#servable(actor, idText)
    const original = await this.#file(actor, row)
    const extension = normaliseFormat(row.format)
    const mimeType = servedMimeType(await this.#context.sniffer.sniff(original.bytes, extension), extension)
    await this.#content.attachmentRead(actor, Number(row.res_id_master), original.digest, meta)
    const bytes = original.bytes
    if (query.mode === 'base64') {
      return {
        kind: 'json',
        body: {
          encodedDocument: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64'),
          extension,
          mimeType,
          // 20.10 numbers the name of a version, and of an original once it has one (then OBS).
          filename: contentFilename(
            row.relation > 1 || row.status === 'OBS' ? `${row.title ?? ''}_V${row.relation}` : (row.title ?? ''),
            extension,
          ),
        },
      }
    }
    return {
      kind: 'file',
      file: {
        mimeType,
        filename: contentFilename(row.title ?? '', extension),
        disposition: 'attachment',
        size: bytes.length,
        body: bytes,
      },
    }
  }
}

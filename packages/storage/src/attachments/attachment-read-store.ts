import type { AttachmentBody, AttachmentReadStore, ServableAttachment, StoredAttachmentListItem } from '@mailroom/core'
import { type Kysely, sql } from 'kysely'
import { attachmentFile, type StoredContentFile } from '../content/content-files.js'
import type { Database } from '../database/schema.js'
import { secondsText, timestampText } from '../database/timestamp-text.js'

const label = (firstname: string | null, lastname: string | null) => [firstname, lastname].filter(Boolean).join(' ')

/** Core's attachment read port over kysely: the rows the reads show, and the files they serve. */
export class KyselyAttachmentReadStore implements AttachmentReadStore<StoredContentFile> {
  readonly #db: Kysely<Database>

  constructor(db: Kysely<Database>) {
    this.#db = db
  }

  async recordExists(resId: number): Promise<boolean> {
    const record = await this.#db
      .selectFrom('res_letterbox')
      .select('res_id')
      .where('res_id', '=', resId)
      .executeTakeFirst()
    return record !== undefined
  }

  async listOf(resId: number, limit: number | null): Promise<StoredAttachmentListItem[]> {
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
    if (limit !== null) select = select.limit(limit)
    const rows = await select.execute()
    return rows.map((row) => ({
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
      format: row.format,
    }))
  }

  async describe(id: number): Promise<Omit<AttachmentBody, 'versions'> | null> {
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
    if (!row) return null
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
    }
  }

  async otherVersions(id: number, originalId: number): Promise<AttachmentBody['versions']> {
    const versions = await this.#db
      .selectFrom('res_attachments')
      .select(['res_id', 'relation'])
      .where((eb) => eb.or([eb('res_id', '=', originalId), eb('origin_id', '=', originalId)]))
      .where('res_id', '<>', id)
      .where('status', '<>', 'DEL')
      .orderBy('relation', 'desc')
      .execute()
    return versions.map((v) => ({ resId: Number(v.res_id), relation: v.relation }))
  }

  async servable(id: number): Promise<ServableAttachment<StoredContentFile> | null> {
    const row = await this.#db
      .selectFrom('res_attachments')
      .selectAll()
      .where('res_id', '=', id)
      .where('status', '<>', 'DEL')
      .executeTakeFirst()
    if (!row) return null
    return {
      id: Number(row.res_id),
      resIdMaster: Number(row.res_id_master),
      title: row.title,
      format: row.format,
      relation: row.relation,
      status: row.status,
      signatoryUserSerialId: row.signatory_user_serial_id,
      file: attachmentFile(row),
    }
  }
}

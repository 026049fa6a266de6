import type {
  Actor,
  AttachmentCreatePorts,
  AttachmentMaster,
  AttachmentOrigin,
  AttachmentTypeDefinition,
  ContentReadMeta,
  NewAttachment,
} from '@mailroom/core'
import { fail } from '@mailroom/core'
import { chronoPlan, isRoot } from '@mailroom/core/internal'
import type { StoredDocument } from '../docserver/document-store.js'
import { nextChrono } from '../records/kysely-records-repository.js'
import type { StorageContext } from '../storage-context.js'
import { attachmentTypeOf } from './attachment-types.js'

const REMOTE_IP_MAX = 64

/** The collection of Maarch's docservers attachment files go to. */
export const ATTACHMENTS_COLLECTION = 'attachments_coll'

/**
 * Failure points of an attachment create, for tests that prove it whole or absent: each hook runs at its point
 * and may throw. Production code passes none.
 */
export interface AttachmentCreateFaults {
  /** After the file is durably in place, before the transaction starts. */
  afterFileWrite?(document: StoredDocument): void | Promise<void>
  /** Inside the transaction, after every row (attachment, earlier versions, journal, history), before COMMIT. */
  beforeCommit?(id: number): void | Promise<void>
}

/**
 * What `POST /rest/attachments` needs of the database and the document store (core's AttachmentCreatePorts).
 * `store` writes the file first, durably, through the same document store as records' files (folder or
 * bucket), then in ONE transaction: the chrono (outgoing counter) when the type takes one, the earlier versions
 * set to OBS, the row, the journal deposit in the master record's archive and the history row. Any failure
 * removes the file; a crash between the file and the commit leaves an orphan that `mailroom fsck` removes.
 */
export class AttachmentWriter implements AttachmentCreatePorts {
  readonly #context: StorageContext
  readonly #faults: AttachmentCreateFaults

  constructor(context: StorageContext, faults: AttachmentCreateFaults = {}) {
    this.#context = context
    this.#faults = faults
  }

  get sniffer() {
    return this.#context.sniffer
  }

  async masterInPerimeter(actor: Actor, resId: number): Promise<AttachmentMaster | null> {
    const { db, perimeter } = this.#context
    const row = await db
      .selectFrom('res_letterbox')
      .select(['res_id', 'destination'])
      .where('res_id', '=', resId)
      .executeTakeFirst()
    if (!row) return null
    if (!isRoot(actor) && !(await perimeter.allows(db, actor, resId))) return null
    return { resId: Number(row.res_id), destination: row.destination }
  }

  attachmentType(id: string): Promise<AttachmentTypeDefinition | null> {
    return attachmentTypeOf(this.#context.db, id)
  }

  async origin(id: number): Promise<AttachmentOrigin | null> {
    const row = await this.#context.db
      .selectFrom('res_attachments')
      .select(['res_id', 'res_id_master', 'status', 'origin_id'])
      .where('res_id', '=', id)
      .where('status', '<>', 'DEL')
      .executeTakeFirst()
    if (!row) return null
    return {
      resId: Number(row.res_id),
      resIdMaster: Number(row.res_id_master),
      status: row.status,
      originId: row.origin_id === null ? null : Number(row.origin_id),
    }
  }

  async recipientExists(type: 'user' | 'contact', id: number): Promise<boolean> {
    const table = type === 'user' ? 'users' : 'contacts'
    const row = await this.#context.db.selectFrom(table).select('id').where('id', '=', id).executeTakeFirst()
    return row !== undefined
  }

  userExists(id: number): Promise<boolean> {
    return this.recipientExists('user', id)
  }

  async store(actor: Actor, attachment: NewAttachment, meta: ContentReadMeta): Promise<number> {
    const { db, clock, docservers, journal } = this.#context
    const area = await db
      .selectFrom('docservers')
      .select(['docserver_id', 'path_template'])
      .where('docserver_type_id', '=', 'DOC')
      .where('is_readonly', '=', 'N')
      .where('coll_id', '=', ATTACHMENTS_COLLECTION)
      .orderBy('id')
      .limit(1)
      .executeTakeFirst()
    if (!area) fail('STORAGE_UNAVAILABLE')
    const now = clock.now()
    const stored = await docservers.write(area.path_template, attachment.format, attachment.bytes, now)
    try {
      await this.#faults.afterFileWrite?.(stored)
      return await db.transaction().execute(async (trx) => {
        const plan = attachment.chrono === null && attachment.type.chrono ? chronoPlan('outgoing', now) : null
        const chrono = plan ? await nextChrono(trx, plan) : attachment.chrono
        let relation = 1
        const origin = attachment.origin
        if (origin) {
          // The original locked: concurrent new versions of one attachment are numbered one after the other.
          await trx
            .selectFrom('res_attachments')
            .select('res_id')
            .where('res_id', '=', origin.resId)
            .forUpdate()
            .execute()
          const chain = (eb: any) => eb.or([eb('res_id', '=', origin.resId), eb('origin_id', '=', origin.resId)])
          const highest = await trx
            .selectFrom('res_attachments')
            .select((eb) => eb.fn.max('relation').as('relation'))
            .where(chain)
            .executeTakeFirst()
          relation = Number(highest?.relation ?? 1) + 1
          await trx
            .updateTable('res_attachments')
            .set({ status: 'OBS', modification_date: now, modified_by: actor.id })
            .where(chain)
            .where('status', '<>', 'DEL')
            .execute()
        }
        const inserted = await trx
          .insertInto('res_attachments')
          .values({
            res_id_master: attachment.master.resId,
            title: attachment.title,
            identifier: chrono,
            typist: attachment.typist,
            status: attachment.status,
            relation,
            origin_id: origin?.resId ?? null,
            origin: attachment.type.id === 'signed_response' && origin ? `${origin.resId},res_attachments` : null,
            attachment_type: attachment.type.id,
            recipient_id: attachment.recipient?.id ?? null,
            recipient_type: attachment.recipient?.type ?? null,
            validation_date: attachment.validationDate,
            effective_date: attachment.effectiveDate,
            in_signature_book: attachment.type.sign,
            creation_date: now,
            format: attachment.format,
            docserver_id: area.docserver_id,
            path: stored.path,
            filename: stored.filename,
            filesize: stored.size,
            fingerprint: stored.sha256,
          })
          .returning('res_id')
          .executeTakeFirstOrThrow()
        const id = Number(inserted.res_id)
        await journal.deposit(trx, {
          resId: attachment.master.resId,
          destination: attachment.master.destination,
          sha256: stored.sha256,
          size: stored.size,
          actor,
          kind: 'newResource',
        })
        await trx
          .insertInto('history')
          .values({
            table_name: 'res_attachments',
            record_id: String(id),
            event_type: 'ADD',
            user_id: actor.id,
            event_date: now,
            info: `Attachment added : ${attachment.title ?? ''} (record ${attachment.master.resId})`,
            id_module: 'attachment',
            remote_ip: meta.remoteIp ? meta.remoteIp.slice(0, REMOTE_IP_MAX) : null,
            event_id: 'attachadd',
          })
          .execute()
        await this.#faults.beforeCommit?.(id)
        return id
      })
    } catch (error) {
      await docservers.remove(stored.key).catch((removal: unknown) => {
        this.#context.logger.error(
          { err: removal, file: stored.key },
          'could not remove the file of a failed attachment',
        )
      })
      throw error
    }
  }
}

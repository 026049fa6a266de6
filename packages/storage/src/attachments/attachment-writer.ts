import type {
  Actor,
  AttachmentCreatePorts,
  AttachmentMaster,
  AttachmentOrigin,
  AttachmentTypeDefinition,
  ContentReadMeta,
  NewAttachment,
  SafeDirectory,
} from '@mailroom/core'
import { fail } from '@mailroom/core'
import { chronoPlan, isRoot } from '@mailroom/core/internal'
import { type ExpressionBuilder, type Selectable, sql } from 'kysely'
import type { AttachmentTypesTable, Database } from '../database/schema.js'
import type { StoredDocument } from '../docserver/document-store.js'
import { rowsAfterFile } from '../docserver/file-then-rows.js'
import { ATTACHMENTS_COLLECTION, StorageAreaCache, type WritableStorageArea } from '../docserver/storage-areas.js'
import { loadSafeDirectory } from '../journal/journal-rows.js'
import { nextChrono } from '../records/kysely-records-repository.js'
import type { StorageContext } from '../storage-context.js'
import { attachmentTypeFromRow } from './attachment-types.js'

const REMOTE_IP_MAX = 64

/**
 * The master record as the look-up found it, with what the one-statement create needs: its archive in the
 * digital safe and the reference data's version (core sees it as an AttachmentMaster and hands it back).
 */
interface StoredMaster extends AttachmentMaster {
  readonly archive: { readonly archiveId: string; readonly safe: string } | null
  readonly referenceVersion: string | null
}

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
  #safes: { version: string; value: SafeDirectory } | null = null
  /** Where attachment files go: the first writable DOC area of the attachments collection. */
  readonly #areas = new StorageAreaCache()

  constructor(context: StorageContext, faults: AttachmentCreateFaults = {}) {
    this.#context = context
    this.#faults = faults
  }

  get sniffer() {
    return this.#context.sniffer
  }

  async references(
    actor: Actor,
    resIdMaster: number,
    typeId: string,
  ): Promise<{ master: AttachmentMaster | null; type: AttachmentTypeDefinition | null }> {
    const { db, perimeter } = this.#context
    const condition = isRoot(actor) ? null : await perimeter.condition(db, actor)
    const allowed = condition
      ? sql<boolean>`exists (select 1 from res_view_letterbox where res_id = ${resIdMaster} and ${condition})`
      : sql<boolean>`true`
    // One round trip: the record (with the perimeter's verdict) and the type, each possibly absent.
    // One round trip: the record (with the perimeter's verdict, its archive in the digital safe and the version
    // of the reference data the safe directory is built from) and the type, each possibly absent.
    const { rows } = await sql<{
      res_id: number | null
      destination: string | null
      allowed: boolean | null
      archive_id: string | null
      safe: string | null
      version: string | null
      type: Selectable<AttachmentTypesTable> | null
    }>`select r.res_id, r.destination, ${allowed} as allowed, a.archive_id, a.safe,
        (select version::text from reference_version) as version,
        (select row_to_json(t) from attachment_types t where t.type_id = ${typeId}) as type
      from (select 1) one
      left join res_letterbox r on r.res_id = ${resIdMaster}
      left join lateral (select archive_id, safe from journal_archives where res_id = r.res_id
        order by created_at desc, archive_id collate "C" desc limit 1) a on true`.execute(db)
    const row = rows[0]
    const master: StoredMaster | null =
      row?.res_id !== null && row?.res_id !== undefined && row.allowed
        ? {
            resId: Number(row.res_id),
            destination: row.destination,
            archive: row.archive_id && row.safe ? { archiveId: row.archive_id, safe: row.safe } : null,
            referenceVersion: row.version,
          }
        : null
    return { master, type: row?.type ? attachmentTypeFromRow(row.type) : null }
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
    const area = await this.#areas.writable(db, 'DOC', ATTACHMENTS_COLLECTION)
    if (!area) fail('STORAGE_UNAVAILABLE')
    const now = clock.now()
    const stored = await docservers.write(area.pathTemplate, attachment.format, attachment.bytes, now)
    const master = attachment.master as StoredMaster
    const files = { store: docservers, logger: this.#context.logger }
    return rowsAfterFile(
      files,
      () => stored,
      async () => {
        await this.#faults.afterFileWrite?.(stored)
        const takesChrono = attachment.chrono === null && attachment.type.chrono
        if (!takesChrono && attachment.origin === null && master.archive && !this.#faults.beforeCommit) {
          // The common case in ONE statement, atomic on its own (no BEGIN, no COMMIT): the row, its history and
          // its journal event (built beforehand: the master record's archive came with the look-up).
          const pending = journal.newResourceRow(await this.#directory(master.referenceVersion), master.archive, {
            resId: master.resId,
            destination: master.destination,
            sha256: stored.sha256,
            size: stored.size,
            actor,
          })
          const history = this.#historyRow(actor, attachment, meta, now)
          const inserted = await db
            .with('attachment', (q) =>
              q
                .insertInto('res_attachments')
                .values(this.#row(attachment, { chrono: attachment.chrono, relation: 1, area, stored, now }))
                .returning('res_id'),
            )
            .with('journal', (q) => q.insertInto('journal_pending').values(pending))
            .with('history', (q) =>
              q
                .insertInto('history')
                .columns([
                  'table_name',
                  'record_id',
                  'event_type',
                  'user_id',
                  'event_date',
                  'info',
                  'id_module',
                  'remote_ip',
                  'event_id',
                ])
                .expression((e) =>
                  e
                    .selectFrom('attachment')
                    .select([
                      sql<string>`${'res_attachments'}`.as('table_name'),
                      sql<string>`attachment.res_id::text`.as('record_id'),
                      sql<string>`${history.event_type}`.as('event_type'),
                      sql<number>`${history.user_id}::integer`.as('user_id'),
                      sql<Date>`${history.event_date}::timestamptz`.as('event_date'),
                      sql<string>`${history.info}`.as('info'),
                      sql<string>`${history.id_module}`.as('id_module'),
                      sql<string | null>`${history.remote_ip}::text`.as('remote_ip'),
                      sql<string>`${history.event_id}`.as('event_id'),
                    ]),
                ),
            )
            .selectFrom('attachment')
            .select('res_id')
            .executeTakeFirstOrThrow()
          return Number(inserted.res_id)
        }
        return await db.transaction().execute(async (trx) => {
          const plan = attachment.chrono === null && attachment.type.chrono ? chronoPlan('outgoing', now) : null
          const chrono = plan ? await nextChrono(trx, plan) : attachment.chrono
          let relation = 1
          const origin = attachment.origin
          if (origin) {
            // The record first, as everything that changes its texts locks it first (a job's completion, migration
            // 0019's trigger): superseding the versions below removes their texts and their jobs.
            await trx
              .selectFrom('res_letterbox')
              .select('res_id')
              .where('res_id', '=', attachment.master.resId)
              .forNoKeyUpdate()
              .execute()
            // The original locked: concurrent new versions of one attachment are numbered one after the other.
            await trx
              .selectFrom('res_attachments')
              .select('res_id')
              .where('res_id', '=', origin.resId)
              .forUpdate()
              .execute()
            const chain = (eb: ExpressionBuilder<Database, 'res_attachments'>) =>
              eb.or([eb('res_id', '=', origin.resId), eb('origin_id', '=', origin.resId)])
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
            .values(this.#row(attachment, { chrono, relation, area, stored, now }))
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
            .values({ ...this.#historyRow(actor, attachment, meta, now), record_id: String(id) })
            .execute()
          await this.#faults.beforeCommit?.(id)
          return id
        })
      },
      'could not remove the file of a failed attachment',
    )
  }

  /** The res_attachments row of a new attachment. */
  #row(
    attachment: NewAttachment,
    written: {
      chrono: string | null
      relation: number
      area: WritableStorageArea
      stored: StoredDocument
      now: Date
    },
  ) {
    const { origin, type, recipient } = attachment
    return {
      res_id_master: attachment.master.resId,
      title: attachment.title,
      identifier: written.chrono,
      typist: attachment.typist,
      status: attachment.status,
      relation: written.relation,
      origin_id: origin?.resId ?? null,
      origin: type.id === 'signed_response' && origin ? `${origin.resId},res_attachments` : null,
      attachment_type: type.id,
      recipient_id: recipient?.id ?? null,
      recipient_type: recipient?.type ?? null,
      validation_date: attachment.validationDate,
      effective_date: attachment.effectiveDate,
      in_signature_book: type.sign,
      creation_date: written.now,
      format: attachment.format,
      docserver_id: written.area.docserverId,
      path: written.stored.path,
      filename: written.stored.filename,
      filesize: written.stored.size,
      fingerprint: written.stored.sha256,
    }
  }

  /** The creation history row (its record_id is the new id). */
  #historyRow(actor: Actor, attachment: NewAttachment, meta: ContentReadMeta, now: Date) {
    return {
      table_name: 'res_attachments',
      event_type: 'ADD',
      user_id: actor.id,
      event_date: now,
      info: `Attachment added : ${attachment.title ?? ''} (record ${attachment.master.resId})`,
      id_module: 'attachment',
      remote_ip: meta.remoteIp ? meta.remoteIp.slice(0, REMOTE_IP_MAX) : null,
      event_id: 'attachadd',
    }
  }

  /** The safe directory, rebuilt when the reference data moved (entities are part of it). */
  async #directory(version: string | null): Promise<SafeDirectory> {
    if (this.#safes && version !== null && this.#safes.version === version) return this.#safes.value
    const value = await loadSafeDirectory(this.#context.db)
    if (version !== null) this.#safes = { version, value }
    return value
  }
}

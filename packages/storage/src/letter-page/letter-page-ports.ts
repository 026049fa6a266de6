import type { LetterPageDependencies, LetterPageStore, NamedEntity, ResourceCorrespondent } from '@mailroom/core'
import { type Kysely, sql } from 'kysely'
import type { Database } from '../database/schema.js'
import { secondsText, timestampText } from '../database/timestamp-text.js'
import { kyselyLinksStore } from '../links/links-ports.js'
import { kyselyNotesStore } from '../notes/notes-store.js'
import { recordPerimeterOf } from '../perimeter/record-perimeter.js'
import type { StorageContext } from '../storage-context.js'

/** The ports of core's letter page use cases (the record's page in 20.10's web client). */
export function letterPagePorts(context: StorageContext): LetterPageDependencies {
  return {
    letterPage: kyselyLetterPageStore(context.db),
    perimeter: recordPerimeterOf(context),
    notes: kyselyNotesStore(context),
    links: kyselyLinksStore(context),
  }
}

/** Attachments 20.10's tab counts (`AttachmentModel::get` with `status in ('TRA', 'A_TRA', 'FRZ')`). */
const COUNTED_ATTACHMENT_STATUSES = ['TRA', 'A_TRA', 'FRZ']

const idOrNull = (value: string | number | null) => (value === null ? null : Number(value))

const namedEntity = (id: number | null, label: string | null): NamedEntity | null =>
  id === null ? null : { id, label }

/** Core's letter page port over kysely: the record's rows; core decides which of them 20.10's answers hold. */
export function kyselyLetterPageStore(db: Kysely<Database>): LetterPageStore {
  return {
    async resource(resId) {
      const row = await db
        .selectFrom('res_letterbox as r')
        .leftJoin('status as s', 's.id', 'r.status')
        .leftJoin('priorities as p', 'p.id', 'r.priority')
        .leftJoin('entities as d', 'd.entity_id', 'r.destination')
        .leftJoin('entities as i', 'i.entity_id', 'r.initiator')
        .select([
          'r.res_id',
          'r.model_id',
          'r.category_id',
          'r.alt_identifier',
          'r.status',
          'r.retention_frozen',
          'r.binding',
          'r.integrations',
          'r.subject',
          'r.priority',
          'r.type_id',
          'r.typist',
          'r.confidentiality',
          'r.barcode',
          'r.custom_fields',
          'r.destination',
          'r.initiator',
          'd.id as destination_serial',
          'd.entity_label as destination_label',
          'i.id as initiator_serial',
          'i.entity_label as initiator_label',
          's.id as status_found',
          's.label_status',
          's.can_be_modified',
          'p.id as priority_found',
          'p.label as priority_label',
          'p.color as priority_color',
          timestampText('r.creation_date').as('creation_date'),
          timestampText('r.modification_date').as('modification_date'),
          sql<string | null>`case when r.closing_date is null then null else ${timestampText('r.closing_date')} end`.as(
            'closing_date',
          ),
          secondsText('r.process_limit_date').as('process_limit_date'),
          secondsText('r.doc_date').as('doc_date'),
          secondsText('r.admission_date').as('admission_date'),
          secondsText('r.departure_date').as('departure_date'),
        ])
        .where('r.res_id', '=', resId)
        .executeTakeFirst()
      if (!row) return null
      const [fields, contacts] = await Promise.all([
        row.model_id === null
          ? Promise.resolve([])
          : db.selectFrom('indexing_models_fields').select('identifier').where('model_id', '=', row.model_id).execute(),
        db
          .selectFrom('resource_contacts')
          .select(['item_id', 'type', 'mode'])
          .where('res_id', '=', resId)
          .where('mode', 'in', ['sender', 'recipient'])
          .orderBy('id')
          .execute(),
      ])
      const correspondents = (mode: string): ResourceCorrespondent[] =>
        contacts.filter((c) => c.mode === mode).map((c) => ({ id: Number(c.item_id), type: c.type }))
      return {
        resId: Number(row.res_id),
        modelId: idOrNull(row.model_id),
        categoryId: row.category_id,
        chrono: row.alt_identifier,
        status: row.status,
        closingDate: row.closing_date,
        creationDate: row.creation_date,
        modificationDate: row.modification_date,
        retentionFrozen: row.retention_frozen,
        binding: row.binding,
        integrations: row.integrations,
        subject: row.subject,
        processLimitDate: row.process_limit_date,
        priority: row.priority,
        doctype: idOrNull(row.type_id),
        typist: idOrNull(row.typist),
        confidentiality: row.confidentiality,
        documentDate: row.doc_date,
        arrivalDate: row.admission_date,
        departureDate: row.departure_date,
        barcode: row.barcode,
        customFields: row.custom_fields,
        destination: row.destination
          ? { entityId: row.destination, entity: namedEntity(idOrNull(row.destination_serial), row.destination_label) }
          : null,
        initiator: row.initiator
          ? { entityId: row.initiator, entity: namedEntity(idOrNull(row.initiator_serial), row.initiator_label) }
          : null,
        statusInfo:
          row.status_found === null ? null : { label: row.label_status, alterable: row.can_be_modified === 'Y' },
        priorityInfo: row.priority_found === null ? null : { label: row.priority_label, color: row.priority_color },
        modelFields: fields.map((f) => f.identifier),
        senders: correspondents('sender'),
        recipients: correspondents('recipient'),
      }
    },

    async surroundings(actor, resId) {
      const entityIds = actor.entities.map((e) => e.id)
      const [folders, tags, followed] = await Promise.all([
        // 20.10 shows a folder of the record shared with one of the actor's entities, its own, or shared with all.
        entityIds.length === 0
          ? Promise.resolve([])
          : db
              .selectFrom('resources_folders as rf')
              .innerJoin('folders as f', 'f.id', 'rf.folder_id')
              .leftJoin('entities_folders as ef', 'ef.folder_id', 'f.id')
              .select('rf.folder_id')
              .distinct()
              .where('rf.res_id', '=', resId)
              .where((eb) =>
                eb.or([
                  eb('ef.entity_id', 'in', entityIds),
                  eb('f.user_id', '=', actor.id),
                  eb('ef.keyword', '=', 'ALL_ENTITIES'),
                ]),
              )
              .orderBy('rf.folder_id')
              .execute(),
        db.selectFrom('resources_tags').select('tag_id').where('res_id', '=', resId).orderBy('id').execute(),
        db
          .selectFrom('users_followed_resources')
          .select('id')
          .where('res_id', '=', resId)
          .where('user_id', '=', actor.id)
          .executeTakeFirst(),
      ])
      return {
        folders: folders.map((f) => Number(f.folder_id)),
        tags: tags.map((t) => Number(t.tag_id)),
        followed: followed !== undefined,
      }
    },

    async itemCounts(resId) {
      const [attachments, lists, receipts] = await Promise.all([
        db
          .selectFrom('res_attachments')
          .select((eb) => eb.fn.countAll<string>().as('n'))
          .where('res_id_master', '=', resId)
          .where('status', 'in', COUNTED_ATTACHMENT_STATUSES)
          .executeTakeFirstOrThrow(),
        db
          .selectFrom('listinstance')
          .select(['difflist_type', (eb) => eb.fn.countAll<string>().as('n')])
          .where('res_id', '=', resId)
          .groupBy('difflist_type')
          .execute(),
        db
          .selectFrom('acknowledgement_receipts')
          .select((eb) => eb.fn.countAll<string>().as('n'))
          .where('res_id', '=', resId)
          .executeTakeFirstOrThrow(),
      ])
      return {
        attachments: Number(attachments.n),
        listsByType: new Map(lists.map((l) => [l.difflist_type ?? '', Number(l.n)])),
        acknowledgementReceipts: Number(receipts.n),
      }
    },

    async fields(resId) {
      const row = await db
        .selectFrom('res_letterbox as r')
        .leftJoin('entities as d', 'd.entity_id', 'r.destination')
        .select(['r.destination', 'r.status', 'r.external_id', 'd.id as destination_serial'])
        .where('r.res_id', '=', resId)
        .executeTakeFirst()
      if (!row) return null
      return {
        destination: row.destination,
        destinationSerialId: idOrNull(row.destination_serial),
        status: row.status,
        externalId: row.external_id,
      }
    },

    async fileFacts(resId) {
      const row = await db
        .selectFrom('res_letterbox as r')
        .leftJoin('users as u', 'u.id', 'r.typist')
        .select([
          'r.format',
          'r.fingerprint',
          'r.filesize',
          'r.fulltext_result',
          'r.filename',
          'r.docserver_id',
          'r.path',
          'r.typist',
          'u.firstname',
          'u.lastname',
          timestampText('r.creation_date').as('creation_date'),
        ])
        .where('r.res_id', '=', resId)
        .executeTakeFirst()
      if (!row) return null
      return {
        format: row.format,
        fingerprint: row.fingerprint,
        filesize: idOrNull(row.filesize),
        fulltextResult: row.fulltext_result,
        creationDate: row.creation_date,
        filename: row.filename,
        docserverId: row.docserver_id,
        path: row.path,
        typist: idOrNull(row.typist),
        // 20.10's getLabelledUserById: `firstname lastname`, empty for no user.
        typistLabel: row.firstname === undefined || row.firstname === null ? '' : `${row.firstname} ${row.lastname}`,
      }
    },

    async versions(resId) {
      const row = await db
        .selectFrom('res_letterbox')
        .select(['version', 'filename', 'format'])
        .where('res_id', '=', resId)
        .executeTakeFirst()
      if (!row) return null
      const files = await db
        .selectFrom('adr_letterbox')
        .select(['type', 'version', 'filename'])
        .where('res_id', '=', resId)
        .where('type', 'in', ['DOC', 'PDF', 'SIGN', 'NOTE'])
        .orderBy('version')
        .orderBy('id')
        .execute()
      return {
        version: idOrNull(row.version),
        filename: row.filename,
        format: row.format,
        files: files.map((f) => ({ type: f.type, version: Number(f.version), filename: f.filename })),
      }
    },
  }
}

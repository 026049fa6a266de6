import type { AttachmentRemovalStore, AttachmentToRemove } from '@mailroom/core'
import { insertHistoryRows } from '../history/history-rows.js'
import type { StorageContext } from '../storage-context.js'

/**
 * Core's removal port over kysely (`DELETE /rest/attachments/{id}`): in one transaction the attachment is locked,
 * its record's perimeter asked, core's check run on both, then it and its other versions become DEL with the
 * history rows core words. A DEL attachment leaves the full-text index by the trigger of migration 0017.
 */
export function kyselyAttachmentRemovalStore(
  context: Pick<StorageContext, 'db' | 'perimeter'>,
): AttachmentRemovalStore {
  return {
    async remove(actor, id, check, meta) {
      await context.db.transaction().execute(async (trx) => {
        const row =
          id === null
            ? undefined
            : await trx
                .selectFrom('res_attachments')
                .select(['res_id', 'res_id_master', 'origin_id', 'typist', 'status', 'attachment_type', 'title'])
                .where('res_id', '=', id)
                .forUpdate()
                .executeTakeFirst()
        const found: AttachmentToRemove | null = row
          ? {
              resId: Number(row.res_id),
              resIdMaster: Number(row.res_id_master),
              originId: row.origin_id === null ? null : Number(row.origin_id),
              typist: Number(row.typist),
              status: row.status,
              type: row.attachment_type,
              title: row.title,
            }
          : null
        const masterInPerimeter = found !== null && (await context.perimeter.allows(trx, actor, found.resIdMaster))
        const { root, history } = check(found, masterInPerimeter)
        await trx
          .updateTable('res_attachments')
          .set({ status: 'DEL' })
          .where((eb) => eb.or([eb('res_id', '=', root), eb('origin_id', '=', root)]))
          .where('status', '<>', 'DEL')
          .execute()
        await insertHistoryRows(trx, actor.id, history, meta.remoteIp)
      })
    },
  }
}

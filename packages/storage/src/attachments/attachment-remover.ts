import type { Actor, ContentReadMeta } from '@mailroom/core'
import {
  type AttachmentToRemove,
  attachmentRemovalHistory,
  checkAttachmentRemoval,
  parseAttachmentRemovalId,
  removedVersionsRoot,
} from '@mailroom/core/internal'
import { insertHistoryRows } from '../history/history-rows.js'
import type { StorageContext } from '../storage-context.js'

/**
 * `DELETE /rest/attachments/{id}` over kysely: in one transaction the attachment is locked, checked by core's rule
 * (perimeter of its record, typist or `manage_attachments`), then it and its other versions become DEL with
 * 20.10's two history rows. Files stay where they are, as in 20.10 (the digital safe keeps what it received);
 * a DEL attachment leaves the full-text index by the trigger of migration 0017.
 */
export async function removeAttachment(
  context: StorageContext,
  actor: Actor,
  idText: string | undefined,
  meta: ContentReadMeta = {},
): Promise<void> {
  const id = parseAttachmentRemovalId(idText)
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
    checkAttachmentRemoval(actor, found, masterInPerimeter)
    const root = removedVersionsRoot(found)
    await trx
      .updateTable('res_attachments')
      .set({ status: 'DEL' })
      .where((eb) => eb.or([eb('res_id', '=', root), eb('origin_id', '=', root)]))
      .where('status', '<>', 'DEL')
      .execute()
    await insertHistoryRows(trx, actor.id, attachmentRemovalHistory(found), meta.remoteIp)
  })
}

import type { AttachmentTypeDefinition } from '@mailroom/core'
import type { Kysely, Selectable } from 'kysely'
import type { AttachmentTypesTable, Database } from '../database/schema.js'

/** A row of attachment_types as the organisation document writes it. */
export function attachmentTypeFromRow(row: Selectable<AttachmentTypesTable>): AttachmentTypeDefinition {
  return {
    id: row.type_id,
    label: row.label,
    icon: row.icon,
    sign: row.sign,
    chrono: row.chrono,
    attachInMail: row.attach_in_mail,
    show: row.show,
  }
}

/** Every attachment type of the organisation, by code. */
export async function attachmentTypes(db: Kysely<Database>): Promise<AttachmentTypeDefinition[]> {
  return (await db.selectFrom('attachment_types').selectAll().orderBy('type_id').execute()).map(attachmentTypeFromRow)
}

import type { AttachmentTypeDefinition } from '@mailroom/core'
import type { Kysely, Selectable } from 'kysely'
import type { AttachmentTypesTable, Database } from '../database/schema.js'

function definitionOf(row: Selectable<AttachmentTypesTable>): AttachmentTypeDefinition {
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
  return (await db.selectFrom('attachment_types').selectAll().orderBy('type_id').execute()).map(definitionOf)
}

/** One attachment type, or null. */
export async function attachmentTypeOf(db: Kysely<Database>, id: string): Promise<AttachmentTypeDefinition | null> {
  const row = await db.selectFrom('attachment_types').selectAll().where('type_id', '=', id).executeTakeFirst()
  return row ? definitionOf(row) : null
}

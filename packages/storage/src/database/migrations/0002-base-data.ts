import { type Kysely, sql } from 'kysely'

/** Reference data every installation needs, demo or not: the document storage areas. */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`insert into docserver_types (docserver_type_id, docserver_type_label, fingerprint_mode) values
    ('DOC', 'Documents', 'SHA256'), ('CONVERT', 'Converted documents', 'SHA256')`.execute(db)
  await sql`insert into docservers (docserver_id, docserver_type_id, device_label, path_template) values
    ('FASTHD_MAN', 'DOC', 'Original documents', 'resources/'),
    ('CONVERT_MLB', 'CONVERT', 'PDF conversions', 'convert/')`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`delete from docservers`.execute(db)
  await sql`delete from docserver_types`.execute(db)
}

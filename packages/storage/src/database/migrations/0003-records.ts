import { type Kysely, sql } from 'kysely'

/**
 * Record creation. The interface makes `doctype` optional, so `res_letterbox.type_id` may be null and the
 * view joins the doctype tables with left joins (same columns, same order: a record without a doctype is
 * still searchable, with null doctype labels).
 */
const STATEMENTS = [
  `alter table res_letterbox alter column type_id drop not null`,
  `create or replace view res_view_letterbox as select r.res_id, r.type_id, r.policy_id, r.cycle_id, r.format, r.typist, r.creation_date,
      r.modification_date, r.docserver_id, r.path, r.filename, r.fingerprint, r.filesize, r.status,
      r.work_batch, r.doc_date, r.external_id, r.departure_date, r.opinion_limit_date, r.barcode,
      r.initiator, r.destination, r.dest_user, r.confidentiality, r.category_id, r.alt_identifier,
      r.admission_date, r.process_limit_date, r.closing_date, r.alarm1_date, r.alarm2_date,
      r.flag_alarm1, r.flag_alarm2, r.subject, r.priority, r.locker_user_id, r.locker_time,
      r.custom_fields, r.retention_frozen, r.binding,
      d.description as type_label,
      d.doctypes_first_level_id,
      dfl.doctypes_first_level_label,
      dfl.css_style as doctype_first_level_style,
      d.doctypes_second_level_id,
      dsl.doctypes_second_level_label,
      dsl.css_style as doctype_second_level_style,
      e.entity_label,
      e.entity_type as entitytype
    from res_letterbox r
      left join doctypes d on d.type_id = r.type_id
      left join doctypes_first_level dfl on dfl.doctypes_first_level_id = d.doctypes_first_level_id
      left join doctypes_second_level dsl on dsl.doctypes_second_level_id = d.doctypes_second_level_id
      left join entities e on e.entity_id = r.destination`,
]

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of STATEMENTS) await sql.raw(statement).execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql.raw(`delete from res_letterbox where type_id is null`).execute(db)
  await sql.raw(`alter table res_letterbox alter column type_id set not null`).execute(db)
}

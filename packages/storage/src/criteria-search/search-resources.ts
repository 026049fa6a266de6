import type { Actor } from '@mailroom/core'
import { type RawBuilder, type SqlBool, sql } from 'kysely'
import { type OptionalTables, visibleNotes } from './optional-tables.js'

/** `First Last (Company)`, the company alone, or the name alone, as 20.10's result list names a contact. */
const CORRESPONDENT_LABEL = sql<string>`case rc.type
  when 'contact' then (select case
      when nullif(trim(concat_ws(' ', c.firstname, c.lastname)), '') is null then c.company
      when nullif(c.company, '') is null then trim(concat_ws(' ', c.firstname, c.lastname))
      else trim(concat_ws(' ', c.firstname, c.lastname)) || ' (' || c.company || ')' end
    from contacts c where c.id = rc.item_id)
  when 'user' then (select trim(concat_ws(' ', u.firstname, u.lastname)) from users u where u.id = rc.item_id)
  when 'entity' then (select e.entity_label from entities e where e.id = rc.item_id)
  end`

/**
 * What 20.10's result list shows of a record (ResourceListController::getFormattedResources), as the columns of
 * a lateral sub-select over `res_letterbox r` for the record `resId` (an expression of the outer query): labels,
 * counts, the caller's follow flag, and the senders and recipients as one JSON array. The search joins it to
 * the rows of the asked page only, in the statement that lists the matches.
 */
export function resourceDetails(
  actor: Actor,
  tables: OptionalTables,
  resId: RawBuilder<unknown>,
  inAttachments: RawBuilder<SqlBool> | null,
  moreColumns: RawBuilder<unknown> | null = null,
): RawBuilder<unknown> {
  const countNotes = tables.notes
    ? sql`(select count(*)::int from notes n where n.identifier = r.res_id and ${visibleNotes(actor)})`
    : sql`0`
  // 20.10 counts attachments that are not deleted, obsolete or signed responses, and temporary ones of the caller.
  const countAttachments = tables.attachments
    ? sql`(select count(*)::int from res_attachments a where a.res_id_master = r.res_id
        and a.status not in ('DEL', 'OBS') and a.attachment_type <> 'signed_response'
        and (a.status <> 'TMP' or a.typist = ${sql.val(actor.id)}))`
    : sql`0`
  // Labels by scalar sub-selects rather than joins: each is planned alone on its key, where five left joins beside
  // the caller's rows made PostgreSQL search join orders for 10–15 ms per statement, for 1 ms of execution
  // (docs/benchmarks.md, a basket's first page). Every key is unique, so a sub-select gives one row or none.
  return sql`select r.alt_identifier, r.barcode, r.subject, r.confidentiality,
      (select s.label_status from status s where s.id = r.status) as label_status,
      (select s.img_filename from status s where s.id = r.status) as img_filename,
      (select p.label from priorities p where p.id = r.priority) as priority_label,
      (select p.color from priorities p where p.id = r.priority) as priority_color,
      r.closing_date, r.creation_date, r.process_limit_date, r.filename is not null as has_document,
      exists (select 1 from users_followed_resources uf where uf.res_id = r.res_id and uf.user_id = ${sql.val(actor.id)}) as followed,
      coalesce((r.integrations->>'inShipping')::boolean, false) as in_shipping,
      coalesce((r.integrations->>'inSignatureBook')::boolean, false) as in_signature_book,
      r.retention_frozen, r.binding,
      (select d.description from doctypes d where d.type_id = r.type_id) as type_label,
      (select e.entity_label from entities e where e.entity_id = r.destination) as entity_label,
      (select nullif(trim(concat_ws(' ', u.firstname, u.lastname)), '') from users u where u.id = r.dest_user)
        as dest_user_name,
      ${countNotes} as count_notes, ${countAttachments} as count_attachments,
      ${inAttachments ?? sql`false`} as in_attachments,
      (select coalesce(json_agg(json_build_object('mode', rc.mode, 'label', ${CORRESPONDENT_LABEL}) order by rc.id), '[]')
        from resource_contacts rc where rc.res_id = r.res_id) as correspondents${moreColumns ? sql`, ${moreColumns}` : sql``}
    from res_letterbox r
    where r.res_id = ${resId}`
}

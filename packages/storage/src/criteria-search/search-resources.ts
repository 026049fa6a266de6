import type { Actor, CriteriaSearchResource } from '@mailroom/core'
import { SEARCH_DISPLAY_ITEMS, type SearchDisplayItemName } from '@mailroom/core/internal'
import { type RawBuilder, type SqlBool, sql } from 'kysely'
import { type OptionalTables, visibleNotes } from './optional-tables.js'

/** The names of a record's senders and recipients. */
interface Correspondents {
  readonly senders: string[]
  readonly recipients: string[]
}

export interface ResourceRow {
  res_id: number
  alt_identifier: string | null
  barcode: string | null
  subject: string | null
  confidentiality: string | null
  label_status: string | null
  img_filename: string | null
  priority_label: string | null
  priority_color: string | null
  closing_date: Date | string | null
  creation_date: Date | string
  process_limit_date: Date | string | null
  has_document: boolean
  followed: boolean
  in_shipping: boolean
  in_signature_book: boolean
  retention_frozen: boolean
  binding: boolean | null
  type_label: string | null
  entity_label: string | null
  dest_user_name: string | null
  count_notes: number
  count_attachments: number
  in_attachments: boolean
  /** Senders and recipients in their order, as `{mode, label}`. */
  correspondents: { mode: string; label: string | null }[] | string
}

function isoOrNull(value: Date | string | null): string | null {
  if (value === null) return null
  return value instanceof Date ? value.toISOString() : new Date(value).toISOString()
}

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
  return sql`select r.alt_identifier, r.barcode, r.subject, r.confidentiality,
      s.label_status, s.img_filename, p.label as priority_label, p.color as priority_color,
      r.closing_date, r.creation_date, r.process_limit_date, r.filename is not null as has_document,
      exists (select 1 from users_followed_resources uf where uf.res_id = r.res_id and uf.user_id = ${sql.val(actor.id)}) as followed,
      coalesce((r.integrations->>'inShipping')::boolean, false) as in_shipping,
      coalesce((r.integrations->>'inSignatureBook')::boolean, false) as in_signature_book,
      r.retention_frozen, r.binding, d.description as type_label, e.entity_label,
      nullif(trim(concat_ws(' ', u.firstname, u.lastname)), '') as dest_user_name,
      ${countNotes} as count_notes, ${countAttachments} as count_attachments,
      ${inAttachments ?? sql`false`} as in_attachments,
      (select coalesce(json_agg(json_build_object('mode', rc.mode, 'label', ${CORRESPONDENT_LABEL}) order by rc.id), '[]')
        from resource_contacts rc where rc.res_id = r.res_id) as correspondents
    from res_letterbox r
      left join status s on s.id = r.status
      left join priorities p on p.id = r.priority
      left join doctypes d on d.type_id = r.type_id
      left join entities e on e.entity_id = r.destination
      left join users u on u.id = r.dest_user
    where r.res_id = ${resId}`
}

/** One record of an answer, from a row carrying the columns of {@link resourceDetails}. */
export function formattedResource(row: ResourceRow): CriteriaSearchResource {
  const correspondents = typeof row.correspondents === 'string' ? JSON.parse(row.correspondents) : row.correspondents
  const names = (mode: string) =>
    (correspondents as { mode: string; label: string | null }[]).flatMap((c) =>
      c.mode === mode && c.label !== null && c.label !== '' ? [c.label] : [],
    )
  return formatted(row, { senders: names('sender'), recipients: names('recipient') })
}

function displayValue(item: SearchDisplayItemName, row: ResourceRow, names: Correspondents): unknown {
  switch (item) {
    case 'getPriority':
      return row.priority_label
    case 'getCreationAndProcessLimitDates':
      return { creationDate: isoOrNull(row.creation_date), processLimitDate: isoOrNull(row.process_limit_date) }
    case 'getAssignee':
      return [row.dest_user_name, row.entity_label === null ? null : `(${row.entity_label})`]
        .filter((part) => part !== null)
        .join(' ')
    case 'getDoctype':
      return row.type_label
    case 'getRecipients':
      return names.recipients
    case 'getSenders':
      return names.senders
  }
}

function formatted(row: ResourceRow, names: Correspondents): CriteriaSearchResource {
  return {
    resId: Number(row.res_id),
    chrono: row.alt_identifier,
    barcode: row.barcode,
    subject: row.subject,
    confidentiality: row.confidentiality,
    statusLabel: row.label_status,
    statusImage: row.img_filename,
    priorityColor: row.priority_color,
    closing_date: isoOrNull(row.closing_date),
    countAttachments: Number(row.count_attachments),
    hasDocument: row.has_document,
    mailTracking: row.followed,
    integrations: { inShipping: row.in_shipping, inSignatureBook: row.in_signature_book },
    retentionFrozen: row.retention_frozen,
    binding: row.binding,
    countNotes: Number(row.count_notes),
    folders: [],
    display: SEARCH_DISPLAY_ITEMS.map((item) => ({
      value: item.value,
      cssClasses: [...item.cssClasses],
      icon: item.icon,
      displayValue: displayValue(item.value, row, names),
    })),
    // An attachment of the record holds the searched text (20.10's getAttachmentsInsider).
    inAttachments: row.in_attachments,
  }
}

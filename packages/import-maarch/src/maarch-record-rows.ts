import type {
  ImportedAttachmentRow,
  ImportedContactRow,
  ImportedHistoryRow,
  ImportedListItemRow,
  ImportedNoteRow,
  ImportedRecordRow,
  StoredDocument,
  WritableStorageArea,
} from '@mailroom/storage'

/** A row as the Maarch database gave it (node-postgres' values: strings, numbers, Dates, parsed JSON). */
export type MaarchRow = Record<string, unknown>

// The readers keep a column's null, and its absence (undefined) so that the column takes its default; any
// other value gets the type Mailroom's column takes, which it already has in Maarch's own schema.
const absent = (value: unknown): value is null | undefined => value === null || value === undefined

/** A text column. */
export function text(value: unknown): string | null | undefined {
  return absent(value) ? value : String(value)
}

/** An integer column (node-postgres gives bigint ones as strings). */
export function integer(value: unknown): number | null | undefined {
  return absent(value) ? value : Number(value)
}

/** A timestamp column: node-postgres' Date, or its text. */
export function timestamp(value: unknown): Date | string | null | undefined {
  return absent(value) || value instanceof Date ? value : String(value)
}

/** A date the record must have (its creation date, from a not-null column). */
export function dateOf(value: unknown): Date {
  return value instanceof Date ? new Date(value) : new Date(String(value))
}

function boolean(value: unknown): boolean | null | undefined {
  return absent(value) || typeof value === 'boolean' ? value : String(value) === 'true'
}

/** A JSON column as text; a null one takes Mailroom's default (`{}`, `[]`). */
function json(value: unknown): string | undefined {
  return absent(value) ? undefined : JSON.stringify(value)
}

/** The res_letterbox columns Mailroom keeps as Maarch had them (the file's columns are the stored file's). */
export function keptColumns(row: MaarchRow): ImportedRecordRow {
  return {
    res_id: Number(row.res_id),
    subject: text(row.subject),
    type_id: integer(row.type_id),
    typist: integer(row.typist),
    creation_date: timestamp(row.creation_date),
    modification_date: timestamp(row.modification_date),
    doc_date: timestamp(row.doc_date),
    status: text(row.status),
    destination: text(row.destination),
    work_batch: integer(row.work_batch),
    origin: text(row.origin),
    priority: text(row.priority),
    policy_id: text(row.policy_id),
    cycle_id: text(row.cycle_id),
    initiator: text(row.initiator),
    dest_user: integer(row.dest_user),
    locker_user_id: integer(row.locker_user_id),
    locker_time: timestamp(row.locker_time),
    confidentiality: text(row.confidentiality),
    fulltext_result: text(row.fulltext_result),
    external_id: json(row.external_id),
    departure_date: timestamp(row.departure_date),
    opinion_limit_date: timestamp(row.opinion_limit_date),
    barcode: text(row.barcode),
    category_id: text(row.category_id),
    alt_identifier: text(row.alt_identifier),
    admission_date: timestamp(row.admission_date),
    process_limit_date: timestamp(row.process_limit_date),
    closing_date: timestamp(row.closing_date),
    alarm1_date: timestamp(row.alarm1_date),
    alarm2_date: timestamp(row.alarm2_date),
    flag_alarm1: text(row.flag_alarm1),
    flag_alarm2: text(row.flag_alarm2),
    model_id: integer(row.model_id),
    version: integer(row.version),
    integrations: json(row.integrations),
    custom_fields: json(row.custom_fields),
    linked_resources: json(row.linked_resources),
    retention_frozen: boolean(row.retention_frozen),
    binding: boolean(row.binding),
  }
}

/** A record's original as Mailroom stored it. */
export interface StoredOriginal {
  readonly area: WritableStorageArea
  /** The format column: Maarch's, lower-cased (the stored file's extension may differ, see RecordImporter). */
  readonly format: string
  readonly document: StoredDocument
}

/** What the import found out about a record, which its row records. */
export interface RecordFindings {
  readonly original: StoredOriginal | null
  /** A fingerprint mismatch, or an original not stored: an operator should look at the record. */
  readonly flagged: boolean
  readonly problems: readonly string[]
  /** The Maarch typist (not imported) and the id of the fallback depositor who stands in for them, or null. */
  readonly replacement: { readonly typist: number; readonly by: number } | null
}

/**
 * The record's row: Maarch's columns, the stored original's, and what an operator sees on the record itself
 * (in external_id.maarchImport): what did not check out at the import, whose record it was.
 */
export function recordRow(row: MaarchRow, findings: RecordFindings): ImportedRecordRow {
  const { original, flagged, problems, replacement } = findings
  const maarchImport = {
    ...(flagged ? { flagged: true, problems } : {}),
    ...(replacement ? { typist: replacement.typist } : {}),
  }
  const external = typeof row.external_id === 'object' && row.external_id !== null ? row.external_id : {}
  return {
    ...keptColumns(row),
    ...(flagged || replacement ? { external_id: JSON.stringify({ ...external, maarchImport }) } : {}),
    ...(replacement ? { typist: replacement.by } : {}),
    format: original ? original.format : text(row.format),
    docserver_id: original?.area.docserverId ?? null,
    path: original?.document.path ?? null,
    filename: original?.document.filename ?? null,
    filesize: original?.document.size ?? null,
    fingerprint: original?.document.sha256 ?? null,
  }
}

/** The record's diffusion list (listinstance rows). */
export function diffusionRows(rows: readonly MaarchRow[]): ImportedListItemRow[] {
  return rows.map((l) => ({
    sequence: Number(l.sequence),
    item_id: Number(l.item_id),
    item_type: String(l.item_type),
    item_mode: String(l.item_mode),
    added_by_user: integer(l.added_by_user) ?? null,
    viewed: l.viewed === null ? null : Number(l.viewed),
    difflist_type: text(l.difflist_type) ?? null,
    process_date: timestamp(l.process_date) ?? null,
    process_comment: text(l.process_comment) ?? null,
    signatory: l.signatory === true,
    requested_signature: l.requested_signature === true,
    delegate: integer(l.delegate) ?? null,
  }))
}

/**
 * The record's notes (notes rows, each with `entities`: the item_ids of its note_entities rows, as the importer's
 * query aggregates them). A note keeps its author's id even when that user was not imported.
 */
export function noteRows(rows: readonly MaarchRow[]): ImportedNoteRow[] {
  return rows.map((n) => ({
    user_id: Number(n.user_id),
    creation_date: dateOf(n.creation_date),
    note_text: String(n.note_text ?? ''),
    entities: Array.isArray(n.entities) ? n.entities.filter((e): e is string => typeof e === 'string') : [],
  }))
}

/**
 * An attachment as Maarch had it (its id, version chain, status, type, chrono, recipient, dates and typist);
 * its file as Mailroom stored it, or none when the file was not found (the row then names no file).
 */
export function attachmentRow(
  a: MaarchRow,
  stored: { readonly area: string; readonly stored: StoredDocument } | null,
): ImportedAttachmentRow {
  return {
    res_id: Number(a.res_id),
    title: text(a.title) ?? null,
    identifier: text(a.identifier) ?? null,
    typist: Number(a.typist),
    status: String(a.status ?? 'A_TRA'),
    relation: integer(a.relation) ?? 1,
    origin_id: integer(a.origin_id) ?? null,
    origin: text(a.origin) ?? null,
    attachment_type: String(a.attachment_type),
    recipient_id: integer(a.recipient_id) ?? null,
    recipient_type: text(a.recipient_type) ?? null,
    validation_date: timestamp(a.validation_date) ?? null,
    effective_date: timestamp(a.effective_date) ?? null,
    in_signature_book: boolean(a.in_signature_book) ?? false,
    in_send_attach: boolean(a.in_send_attach) ?? false,
    external_id: JSON.stringify(
      typeof a.external_id === 'string' ? JSON.parse(a.external_id || '{}') : (a.external_id ?? {}),
    ),
    creation_date: dateOf(a.creation_date),
    modification_date: timestamp(a.modification_date) ?? null,
    modified_by: integer(a.modified_by) ?? null,
    format: String(a.format ?? 'pdf').toLowerCase(),
    docserver_id: stored?.area ?? String(a.docserver_id ?? ''),
    path: stored?.stored.path ?? null,
    filename: stored?.stored.filename ?? null,
    filesize: stored?.stored.size ?? null,
    fingerprint: stored?.stored.sha256 ?? null,
    fulltext_result: text(a.fulltext_result) ?? null,
    signatory_user_serial_id: integer(a.signatory_user_serial_id) ?? null,
  }
}

/** The record's senders and recipients (resource_contacts rows). */
export function contactRows(rows: readonly MaarchRow[]): ImportedContactRow[] {
  return rows.map((c) => ({ item_id: Number(c.item_id), type: String(c.type), mode: String(c.mode) }))
}

/** The record's history in Maarch, then the import's own row. */
export function historyRows(rows: readonly MaarchRow[], imported: ImportedHistoryRow): ImportedHistoryRow[] {
  const earlier = rows.map((h) => ({
    event_type: String(h.event_type),
    user_id: integer(h.user_id) ?? null,
    // Never null: Maarch's column is not null.
    event_date: timestamp(h.event_date) ?? undefined,
    info: text(h.info) ?? null,
    id_module: String(h.id_module ?? 'admin'),
    remote_ip: text(h.remote_ip) ?? null,
    event_id: text(h.event_id) ?? null,
  }))
  return [...earlier, imported]
}

/** The history row saying the record was imported, and what was repaired or did not check out. */
export function importHistoryRow(sourceVersion: string, problems: readonly string[], date: Date): ImportedHistoryRow {
  return {
    event_type: 'IMPORT',
    user_id: null,
    event_date: date,
    info: `Imported from Maarch Courrier ${sourceVersion}${problems.length > 0 ? `: ${problems.join('; ')}` : ''}`,
    id_module: 'import',
    remote_ip: null,
    event_id: 'maarchImport',
  }
}

import type {
  ImportedAttachmentRow,
  ImportedRecordChanges,
  ImportedRecordState,
  StoredDocument,
} from '@mailroom/storage'
import type { ImporterParts } from '../importer-parts.js'
import { attachmentRow, type MaarchRow } from '../maarch-record-rows.js'
import type { AttachmentFile } from '../record-files.js'
import { changedColumns } from './compare.js'
import { type FoundChange, sha256 } from './record-changes.js'

/** res_attachments columns compared on an attachment imported before (the file is compared by its bytes). */
const ATTACHMENT_FILE_COLUMNS = new Set(['res_id', 'docserver_id', 'path', 'filename', 'filesize', 'fingerprint'])

type AttachmentUpdate = { resId: number; set: Record<string, unknown>; file?: MaarchRow }

/** A record's attachments as the source has them now, against those imported before. */
export interface AttachmentChanges extends FoundChange {
  /** Attachments imported before, by id. */
  readonly held: ReadonlyMap<number, ImportedRecordState['attachments'][number]>
  /** The source's attachments new since, with their files. */
  readonly added: readonly MaarchRow[]
  readonly addedFiles: readonly AttachmentFile[]
  /** Columns changed on attachments imported before (possibly none), and their files that changed. */
  readonly updates: readonly AttachmentUpdate[]
  readonly changedFiles: readonly AttachmentFile[]
}

/**
 * New attachments with their files; those imported before with their changed columns and a changed file.
 * `sourceAttachments` holds the deleted ones too: an attachment deleted in Maarch since is a status change.
 */
export async function attachmentChanges(
  parts: ImporterParts,
  sourceAttachments: readonly MaarchRow[],
  state: ImportedRecordState,
  problems: string[],
): Promise<AttachmentChanges> {
  const held = new Map(state.attachments.map((a) => [Number(a.res_id), a]))
  const added = sourceAttachments.filter((a) => !held.has(Number(a.res_id)) && String(a.status ?? '') !== 'DEL')
  const updates: AttachmentUpdate[] = []
  for (const a of sourceAttachments) {
    const mine = held.get(Number(a.res_id))
    if (!mine) continue
    const wantedRow = attachmentRow(a, null) as unknown as Record<string, unknown>
    const compared = Object.fromEntries(
      Object.entries(wantedRow).filter(([column]) => !ATTACHMENT_FILE_COLUMNS.has(column) && column !== 'origin_id'),
    )
    const differing = changedColumns(compared, mine, new Set(['external_id']))
    const update: AttachmentUpdate = {
      resId: Number(a.res_id),
      set: Object.fromEntries(differing.map((column) => [column, compared[column]])),
    }
    if (String(a.status ?? '') !== 'DEL' && a.filename && a.docserver_id) update.file = a
    updates.push(update)
  }
  const readFiles = await parts.readAttachments(
    updates.flatMap((u) => (u.file ? [u.file] : [])),
    [],
  )
  const changedFiles = readFiles.filter(
    (f) => f.bytes !== null && sha256(f.bytes) !== String(held.get(Number(f.row.res_id))?.fingerprint ?? ''),
  )
  const changed = new Set([
    ...updates.filter((u) => Object.keys(u.set).length > 0).map((u) => u.resId),
    ...changedFiles.map((f) => Number(f.row.res_id)),
  ])
  const addedFiles = added.length > 0 ? await parts.readAttachments(added, problems) : []
  return {
    held,
    added,
    addedFiles,
    updates,
    changedFiles,
    changes: [
      ...(added.length > 0 ? [`attachments +${added.length}`] : []),
      ...(changed.size > 0 ? [`attachments ~${changed.size}`] : []),
    ],
    counts: {
      ...(added.length > 0 ? { attachmentsAdded: added.length } : {}),
      ...(changed.size > 0 ? { attachmentsChanged: changed.size } : {}),
    },
  }
}

/**
 * Stores the new attachments' files and the changed files of those imported before (`written` gets each file,
 * `deposit` each one stored); returns their rows and column updates, ready to be written.
 */
export async function storeAttachmentChanges(
  parts: ImporterParts,
  resId: number,
  found: AttachmentChanges,
  written: StoredDocument[],
  deposit: (file: StoredDocument, provenance: string) => void,
): Promise<Pick<ImportedRecordChanges, 'attachments' | 'attachmentUpdates'>> {
  const added = await parts.storeAttachments(found.addedFiles, written)
  // A new version of an attachment imported before keeps its link to it.
  const known = new Set([...found.held.keys(), ...found.added.map((a) => Number(a.res_id))])
  const addedRows: (ImportedAttachmentRow & { res_id_master: number })[] = added.map(({ row: a }, i) => {
    const origin = integerOrNull(found.added[i]?.origin_id)
    return { ...a, res_id_master: resId, origin_id: origin !== null && known.has(origin) ? origin : a.origin_id }
  })
  for (const { row: a, stored: file } of added) if (file) deposit(file, `attachment ${a.res_id}`)
  const replaced = await parts.storeAttachments(found.changedFiles, written)
  const fileSets = new Map(
    replaced.map(({ row: a, stored: file }) => {
      if (file) deposit(file, `attachment ${a.res_id}, changed since the last import`)
      return [
        a.res_id,
        {
          format: a.format,
          docserver_id: a.docserver_id,
          path: a.path,
          filename: a.filename,
          filesize: a.filesize,
          fingerprint: a.fingerprint,
        },
      ] as const
    }),
  )
  return {
    attachments: addedRows,
    attachmentUpdates: found.updates
      .map((u) => ({ resId: u.resId, set: { ...u.set, ...(fileSets.get(u.resId) ?? {}) } }))
      .filter((u) => Object.keys(u.set).length > 0),
  }
}

const integerOrNull = (value: unknown) => (value === null || value === undefined ? null : Number(value))

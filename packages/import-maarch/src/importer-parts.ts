import type { Actor } from '@mailroom/core'
import type { ImportedAttachmentRow, ImportedVersionRow, JournalWriter, StoredDocument } from '@mailroom/storage'
import type { MaarchRow, StoredOriginal } from './maarch-record-rows.js'
import type { AttachmentFile, OriginalFile, VersionFile } from './record-files.js'

/**
 * The reads and writes a record's import is made of (RecordImporter's), which the delta import uses to carry a
 * new file, version or attachment onto a record imported before, exactly as a first import would store it.
 */
export interface ImporterParts {
  readonly sourceVersion: string
  readonly journal: JournalWriter
  readOriginal(row: MaarchRow, problems: string[]): Promise<OriginalFile | null>
  readVersions(adr: readonly MaarchRow[], problems: string[]): Promise<VersionFile[]>
  readAttachments(rows: readonly MaarchRow[], problems: string[]): Promise<AttachmentFile[]>
  storeOriginal(row: MaarchRow, bytes: Buffer, created: Date, written: StoredDocument[]): Promise<StoredOriginal | null>
  storeVersions(
    versions: readonly VersionFile[],
    created: Date,
    written: StoredDocument[],
  ): Promise<ImportedVersionRow[]>
  storeAttachments(
    attachments: readonly AttachmentFile[],
    written: StoredDocument[],
  ): Promise<{ row: ImportedAttachmentRow; stored: StoredDocument | null }[]>
  /** The record's depositor: its typist, else the fallback depositor (`replaced`), else null (a dry run). */
  depositor(
    typist: number,
    resId: number,
    dryRun: boolean,
    problems: string[],
  ): Promise<{ actor: Actor | null; replaced: boolean }>
  /** Removes files stored for a record whose rows were not committed. */
  remove(written: readonly StoredDocument[]): Promise<void>
}

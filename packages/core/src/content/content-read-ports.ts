import type { Actor } from '../actors/actor.js'
import type { HistoryRow } from '../history/history-row.js'

/** What a stored file is to the reads that serve it: its adr type (null for a record's own file) and its name. */
export interface ContentFile {
  /** adr_letterbox.type (`PDF`, `SIGN`, `NOTE`, `DOC`), null for the original a record points at. */
  readonly type: string | null
  /** The stored file's name, whose extension tells its format when the row declares none. */
  readonly filename: string | null
}

/** The digest of bytes read from a stored file: the storage area's fingerprint, SHA-256 (for the journal), size. */
export interface ReadDigest {
  readonly fingerprint: string
  readonly sha256: string
  readonly size: number
}

/** A stored file read whole and found to match its fingerprint. */
export interface VerifiedFile {
  readonly bytes: Uint8Array
  readonly digest: ReadDigest
}

/**
 * A file fetched for a raw download: read whole and checked when it is small, or (past the storage's
 * verify-before-send size) a stream hashed on the way, whose wrong fingerprint cuts the transfer short.
 */
export type Download =
  | { readonly kind: 'verified'; readonly file: VerifiedFile }
  | {
      readonly kind: 'stream'
      readonly size: number
      /** The first `bytes` bytes, to sniff the type from. */
      head(bytes: number): Promise<Uint8Array>
      /** Checks what can be checked before sending (a missing fingerprint is computed, the size), then streams. */
      open(): Promise<{ readonly body: AsyncIterable<Uint8Array>; readonly digest: ReadDigest }>
    }

/** A record as the content reads need it. */
export interface ContentRecord<F extends ContentFile> {
  readonly resId: number
  readonly subject: string | null
  readonly format: string | null
  readonly filename: string | null
  readonly typist: number
  readonly version: number
  /** Every column by name, for the watermark text's `[column]` placeholders. */
  readonly columns: Readonly<Record<string, unknown>>
  /** The file the record points at (its current original). */
  readonly original: F
}

/** What the look-up of a record for a read found (null: no record has this id). */
export interface ContentLookup<F extends ContentFile> {
  readonly record: ContentRecord<F>
  /** Whether the actor's perimeter holds the record (always true for root users). */
  readonly allowed: boolean
  /** With `withPdf`: the signed PDF of the current version, else its PDF conversion, when stored. */
  readonly currentPdf: F | null
}

/** A PDF conversion stored for a version: its file, and its bytes when this call made it. */
export interface StoredConversion<F extends ContentFile> {
  readonly file: F
  readonly fresh?: VerifiedFile
}

/** What one served read leaves behind: the journal's consultation of the record, and its history row if any. */
export interface ReadTrace {
  readonly actor: Actor
  readonly resId: number
  readonly digest: ReadDigest
  /** The VIEW row of `content` and `originalContent`; null for reads that write none (`content/{version}`). */
  readonly history: HistoryRow | null
  readonly remoteIp?: string | undefined
}

/**
 * Storage side of the content reads: records and their stored files, read and checked against their
 * fingerprints (a file that no longer matches is journalled as a failed integrity check on `resId` and refused
 * with FINGERPRINT_MISMATCH; a row without fingerprint gets one), conversions stored, traces committed.
 */
export interface ContentReadStore<F extends ContentFile> {
  /**
   * One round trip: the record, whether the actor's perimeter holds it, and with `withPdf` the stored PDF (or
   * signed PDF, which wins) of its current version.
   */
  lookUp(actor: Actor, resId: number, withPdf: boolean): Promise<ContentLookup<F> | null>
  /** The adr file of a version whose type is among `types` (the greatest type when several: SIGN before PDF). */
  versionFile(resId: number, types: readonly string[], version: number): Promise<F | null>
  /** Reads a whole file and checks it; `label` names it in the logs and the journal. */
  read(actor: Actor, resId: number, file: F, label: string): Promise<VerifiedFile>
  /** A file for a raw download, whole and checked when small, else streamed (see {@link Download}). */
  download(actor: Actor, resId: number, file: F, label: string): Promise<Download>
  /**
   * Stores a version's PDF conversion in a CONVERT storage area and its adr row; when another server stored
   * one meanwhile, keeps that one (this file removed). Fails with CONVERSION_FAILED when nothing can hold it.
   */
  storeConversion(resId: number, version: number, pdf: Uint8Array): Promise<StoredConversion<F>>
  /** The latest signatory of the record's diffusion list, null when it has none. */
  signatoryOf(resId: number): Promise<number | null>
  /** Every column of a record by name (the watermark of its attachments); the record exists. */
  recordColumns(resId: number): Promise<Readonly<Record<string, unknown>>>
  /** Commits the read's traces; the read is answered only once they are committed. */
  trace(trace: ReadTrace): Promise<void>
}

/** Watermarked PDFs recently drawn, by source fingerprint and text (storage's WatermarkCache). */
export interface WatermarkMemo {
  get(fingerprint: string, text: string): Uint8Array | undefined
  set(fingerprint: string, text: string, pdf: Uint8Array): void
}

/** Where a use case tells operators what it chose to do (storage's logger). */
export interface OperatorLog {
  warn(details: Readonly<Record<string, unknown>>, message: string): void
}

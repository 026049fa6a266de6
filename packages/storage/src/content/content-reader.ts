import {
  type Actor,
  type ContentBase64Body,
  type ContentQuery,
  type ContentReadMeta,
  type ContentResult,
  domainError,
  fail,
  isDomainError,
  type OriginalContentBase64Body,
  type OriginalContentQuery,
  type ServedFile,
  type VersionContentBody,
  type VersionContentQuery,
} from '@mailroom/core'
import {
  contentFilename,
  conversionKind,
  isRoot,
  normaliseFormat,
  parseContentMode,
  parseContentResId,
  parseOriginalMode,
  parseSignedVersion,
  parseVersionParam,
  parseVersionType,
  parseWatermarkFlag,
  renderWatermarkText,
  servedMimeType,
  versionFilename,
} from '@mailroom/core/internal'
import { type Kysely, type Selectable, sql } from 'kysely'
import type { AdrLetterboxTable, Database, ResLetterboxTable } from '../database/schema.js'
import type { DocumentStore, StoredDocument } from '../docserver/document-store.js'
import { StorageAreaCache } from '../docserver/storage-areas.js'
import type { StorageContext } from '../storage-context.js'
import { type ContentSettings, DEFAULT_CONTENT_SETTINGS } from './content-settings.js'
import { FileReaderPool } from './file-reader-pool.js'
import { ReadAudit, type ReadAuditJournal } from './read-audit.js'
import {
  type DigestedFile,
  digestFile,
  digestMatches,
  digestOf,
  type FileDigest,
  fingerprintAlgorithm,
  type LocatedFile,
  locateFile,
  readDigestedFrom,
  readHead,
  type StoredFileRef,
  verifyingStream,
} from './stored-file.js'
import { WatermarkCache } from './watermark-cache.js'

type RecordRow = Selectable<ResLetterboxTable>
type AdrRow = Selectable<AdrLetterboxTable>

/** The digital-safe journal calls a content read makes (the journal storage's JournalWriter satisfies it). */
export interface ContentJournal extends ReadAuditJournal {
  integrityCheck(
    trx: Kysely<Database>,
    request: { resId: number; sha256: string; size: number; actor: Actor; ok: boolean; info: string },
  ): Promise<void>
  /** A new version's file entering the safe (kind `newResource`). */
  deposit?(
    trx: Kysely<Database>,
    request: {
      resId: number
      destination: string | null
      sha256: string
      size: number
      actor: Actor
      kind: 'deposit' | 'newResource'
    },
  ): Promise<void>
}

/** What the reader needs from the storage context; any journal with the two calls will do (tests pass a fake). */
export type ContentReaderContext = Omit<StorageContext, 'journal'> & { readonly journal?: ContentJournal }

/** Which row a stored file belongs to, to back-fill a missing fingerprint. */
type RowKey =
  | { readonly table: 'res_letterbox'; readonly resId: number }
  | { readonly table: 'adr_letterbox'; readonly id: number }
  | { readonly table: 'res_attachments'; readonly id: number }

/** A stored file to serve or convert: its columns, its row, and what it is (for logs). */
interface Source {
  readonly ref: StoredFileRef
  readonly key: RowKey
  readonly label: string
}

/** The PDF `content` serves: its adr row, plus its bytes when this read just made it. */
interface PdfSource {
  readonly row: AdrRow
  readonly fresh?: DigestedFile
}

const SNIFF_HEAD = 256 * 1024

/**
 * The three content reads over kysely and the document storage. Check order (reference §4): resId, the
 * query parameters, perimeter (a non-root caller gets 403 even for a record that does not exist, as in the
 * reference; root users get 400 `Document does not exist`), record, file, then storage area, file and
 * fingerprint. Every read re-hashes the bytes it serves; see verifyingStream for files streamed from disk.
 */
export class ContentReader {
  readonly #context: ContentReaderContext
  readonly #settings: ContentSettings
  readonly #store: DocumentStore
  readonly #conversions = new Map<string, Promise<PdfSource>>()
  readonly #areas = new StorageAreaCache()
  readonly #watermarks = new WatermarkCache()
  readonly #audit: ReadAudit
  readonly #files: FileReaderPool

  constructor(context: ContentReaderContext, settings: Partial<ContentSettings> = {}) {
    this.#context = context
    this.#settings = { ...DEFAULT_CONTENT_SETTINGS, ...settings }
    this.#store = context.docservers
    this.#audit = new ReadAudit({
      db: context.db,
      journal: context.journal,
      clock: context.clock,
      logger: context.logger,
    })
    this.#files = new FileReaderPool(this.#settings.readThreads)
  }

  /** Stops the reading threads (reads after this run on the event loop). */
  close(): Promise<void> {
    return this.#files.close()
  }

  get #db(): Kysely<Database> {
    return this.#context.db
  }

  get #journal(): ContentJournal | undefined {
    return this.#context.journal
  }

  /** `GET /rest/resources/{resId}/content`. */
  async content(
    actor: Actor,
    resIdText: string | undefined,
    query: ContentQuery,
    meta: ContentReadMeta = {},
  ): Promise<ContentResult<ContentBase64Body>> {
    const resId = parseContentResId(resIdText)
    const mode = parseContentMode(query.mode)
    const watermark = parseWatermarkFlag(query.watermark) && this.#settings.watermark.enabled
    const { record, pdf: storedPdf } = await this.#recordWithPdf(actor, resId, true)
    const pdf = storedPdf ? { row: storedPdf } : await this.#currentPdf(actor, record)
    const source = adrSource(pdf.row, 'converted PDF')
    let located: LocatedFile | undefined
    if (!pdf.fresh && mode !== 'base64' && !watermark) {
      const file = await locateFile(this.#db, this.#context.docservers, source.ref, this.#areas)
      located = file
      if (file.size > this.#settings.verifyBeforeSendMaxBytes) {
        const streamed = await this.#stream(actor, resId, source, file, 'application/pdf')
        await this.#afterRead(actor, resId, streamed.digest, true, meta)
        return {
          kind: 'file',
          file: {
            ...streamed.file,
            filename: contentFilename(record.subject, 'pdf'),
            disposition: mode === 'view' ? 'inline' : 'attachment',
          },
        }
      }
    }
    const verified = pdf.fresh ?? (await this.#readVerified(actor, resId, source, located))
    const served = watermark ? await this.#watermark(verified, record) : verified.bytes
    const mimeType = servedMimeType(await this.#context.sniffer.sniff(served.subarray(0, SNIFF_HEAD)), 'pdf')
    await this.#afterRead(actor, resId, verified.digest, true, meta)
    if (mode === 'base64') {
      const originalFormat = record.format ?? ''
      const body: ContentBase64Body = {
        encodedDocument: Buffer.from(served.buffer, served.byteOffset, served.byteLength).toString('base64'),
        originalFormat,
        filename: contentFilename(record.subject, originalFormat || 'pdf'),
        mimeType,
        originalCreatorId: record.typist,
        ...(pdf.row.type === 'SIGN' ? { signatoryId: await this.#signatory(record) } : {}),
      }
      return { kind: 'json', body }
    }
    const file: ServedFile = {
      mimeType,
      filename: contentFilename(record.subject, 'pdf'),
      disposition: mode === 'view' ? 'inline' : 'attachment',
      size: served.length,
      body: served,
    }
    return { kind: 'file', file }
  }

  /** `GET /rest/resources/{resId}/originalContent`. */
  async originalContent(
    actor: Actor,
    resIdText: string | undefined,
    query: OriginalContentQuery,
    meta: ContentReadMeta = {},
  ): Promise<ContentResult<OriginalContentBase64Body>> {
    const resId = parseContentResId(resIdText)
    const signedWanted = parseSignedVersion(query.signedVersion)
    const mode = parseOriginalMode(query.mode)
    const record = await this.#record(actor, resId)
    const signed = signedWanted ? await this.#adr(resId, 'SIGN', record.version) : undefined
    const source: Source = signed ? adrSource(signed, 'signed PDF') : recordSource(record)
    const extension = signed ? 'pdf' : extensionOf(record.format, record.filename)
    const filename = contentFilename(record.subject, extension)
    const file = await locateFile(this.#db, this.#context.docservers, source.ref, this.#areas)
    if (mode !== 'base64' && file.size > this.#settings.verifyBeforeSendMaxBytes) {
      const mimeType = servedMimeType(
        await this.#context.sniffer.sniff(await readHead(this.#store, file, SNIFF_HEAD), extension),
        extension,
      )
      const streamed = await this.#stream(actor, resId, source, file, mimeType)
      await this.#afterRead(actor, resId, streamed.digest, true, meta)
      return { kind: 'file', file: { ...streamed.file, filename, disposition: 'attachment' } }
    }
    const verified = await this.#readVerified(actor, resId, source, file)
    const mimeType = servedMimeType(await this.#context.sniffer.sniff(verified.bytes, extension), extension)
    await this.#afterRead(actor, resId, verified.digest, true, meta)
    if (mode === 'base64') {
      const b = verified.bytes
      return {
        kind: 'json',
        body: {
          encodedDocument: Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('base64'),
          extension,
          filename,
          mimeType,
        },
      }
    }
    return {
      kind: 'file',
      file: { mimeType, filename, disposition: 'attachment', size: verified.bytes.length, body: verified.bytes },
    }
  }

  /** `GET /rest/resources/{resId}/content/{version}`. */
  async versionContent(
    actor: Actor,
    resIdText: string | undefined,
    versionText: string | undefined,
    query: VersionContentQuery,
  ): Promise<VersionContentBody> {
    const resId = parseContentResId(resIdText)
    const version = parseVersionParam(versionText)
    const type = parseVersionType(query.type)
    const record = await this.#record(actor, resId)
    if (version > record.version) fail('VERSION_INCORRECT')
    let pdf: PdfSource
    if (type === 'PDF') pdf = await this.#versionPdf(actor, record, version)
    else {
      const row = await this.#adr(resId, type, version)
      if (!row) fail('VERSION_TYPE_HAS_NO_FILE')
      pdf = { row }
    }
    const verified =
      pdf.fresh ?? (await this.#readVerified(actor, resId, adrSource(pdf.row, `${type} of version ${version}`)))
    const served = this.#settings.watermark.enabled ? await this.#watermark(verified, record) : verified.bytes
    await this.#afterRead(actor, resId, verified.digest, false, {})
    return {
      encodedDocument: Buffer.from(served.buffer, served.byteOffset, served.byteLength).toString('base64'),
      filename: versionFilename(record.subject, version, extensionOf(null, pdf.row.filename) || 'pdf'),
    }
  }

  /**
   * An attachment's stored file, read and checked as a record's are: a row without fingerprint gets one, a
   * file that no longer matches is refused (400 `Fingerprints do not match`) and journalled on the master record.
   */
  readAttachmentFile(
    actor: Actor,
    attachment: { readonly id: number; readonly resIdMaster: number; readonly ref: StoredFileRef },
  ): Promise<DigestedFile> {
    const source: Source = {
      ref: attachment.ref,
      key: { table: 'res_attachments', id: attachment.id },
      label: `attachment ${attachment.id}`,
    }
    return this.#readVerified(actor, attachment.resIdMaster, source)
  }

  /** Whether content reads draw the configured watermark (attachment content follows the records'). */
  get watermarks(): boolean {
    return this.#settings.watermark.enabled
  }

  /** Draws the watermark of the master record's content on another PDF (an attachment's). */
  async watermarkForRecord(pdf: DigestedFile, resIdMaster: number): Promise<Uint8Array> {
    const record = await this.#db
      .selectFrom('res_letterbox')
      .selectAll()
      .where('res_id', '=', resIdMaster)
      .executeTakeFirstOrThrow()
    return this.#watermark(pdf, record)
  }

  /** The VIEW history and journal consultation of a read of the master record's attachment. */
  attachmentRead(actor: Actor, resIdMaster: number, digest: FileDigest, meta: ContentReadMeta): Promise<void> {
    return this.#afterRead(actor, resIdMaster, digest, true, meta)
  }

  async #record(actor: Actor, resId: number): Promise<RecordRow> {
    return (await this.#recordWithPdf(actor, resId, false)).record
  }

  /**
   * One round trip: the record, for non-root callers whether the perimeter lets them see it, and with
   * `withPdf` the stored PDF (or signed PDF) of its current version, which `content` serves.
   */
  async #recordWithPdf(
    actor: Actor,
    resId: number,
    withPdf: boolean,
  ): Promise<{ record: RecordRow; pdf: AdrRow | undefined }> {
    const condition = isRoot(actor) ? null : await this.#context.perimeter.condition(this.#db, actor)
    const allowed = condition
      ? sql<boolean>`exists (select 1 from res_view_letterbox where res_id = ${resId} and ${condition})`
      : sql<boolean>`true`
    // 'SIGN' > 'PDF': a signed version wins.
    const pdf = withPdf
      ? sql<AdrRow | null>`(select row_to_json(a) from (select * from adr_letterbox where res_id = res_letterbox.res_id and version = res_letterbox.version and type in ('PDF', 'SIGN') order by type desc limit 1) a)`
      : sql<null>`null`
    const found = await this.#db
      .selectFrom('res_letterbox')
      .selectAll()
      .select([allowed.as('__allowed'), pdf.as('__pdf')])
      .where('res_id', '=', resId)
      .executeTakeFirst()
    // A record that does not exist is out of perimeter for non-root callers (reference: the right check comes first).
    if (!found?.__allowed) fail(condition === null && !found ? 'DOCUMENT_NOT_FOUND' : 'OUT_OF_PERIMETER')
    const { __allowed: _, __pdf: pdfRow, ...record } = found
    if (!record.filename) fail('DOCUMENT_HAS_NO_FILE')
    return { record, pdf: pdfRow ?? undefined }
  }

  #adr(resId: number, type: string, version: number): Promise<AdrRow | undefined> {
    return this.#db
      .selectFrom('adr_letterbox')
      .selectAll()
      .where('res_id', '=', resId)
      .where('type', '=', type)
      .where('version', '=', version)
      .executeTakeFirst()
  }

  /** The signatory of a signed record: the latest diffusion-list signatory, else the typist (reference). */
  async #signatory(record: RecordRow): Promise<number> {
    const row = await this.#db
      .selectFrom('listinstance')
      .select('item_id')
      .where('res_id', '=', record.res_id)
      .where('signatory', '=', true)
      .orderBy('listinstance_id', 'desc')
      .limit(1)
      .executeTakeFirst()
    return row?.item_id ?? record.typist
  }

  /** The signed PDF of the current version if any, else its PDF conversion (made now when missing). */
  async #currentPdf(actor: Actor, record: RecordRow): Promise<PdfSource> {
    const row = await this.#db
      .selectFrom('adr_letterbox')
      .selectAll()
      .where('res_id', '=', record.res_id)
      .where('version', '=', record.version)
      .where('type', 'in', ['PDF', 'SIGN'])
      .orderBy('type', 'desc') // 'SIGN' > 'PDF': a signed version wins
      .limit(1)
      .executeTakeFirst()
    if (row) return { row }
    return this.#convert(actor, record, record.version, recordSource(record), record.format ?? '')
  }

  /** The PDF conversion of a version: stored, else made from that version's original (current or DOC row). */
  async #versionPdf(actor: Actor, record: RecordRow, version: number): Promise<PdfSource> {
    const row = await this.#adr(record.res_id, 'PDF', version)
    if (row) return { row }
    if (version === record.version)
      return this.#convert(actor, record, version, recordSource(record), record.format ?? '')
    const original = await this.#adr(record.res_id, 'DOC', version)
    if (!original) fail('VERSION_TYPE_HAS_NO_FILE')
    return this.#convert(
      actor,
      record,
      version,
      adrSource(original, `original of version ${version}`),
      extensionOf(null, original.filename),
    )
  }

  /**
   * Converts an original to PDF on first read and stores it as adr type PDF. Lazy rather than at creation:
   * create stays fast and never fails or waits on LibreOffice, records that are never opened cost nothing,
   * and a conversion that failed (LibreOffice missing, queue full) is simply retried by the next read.
   * Concurrent first reads in this process share one conversion; across processes the unique
   * (res_id, type, version) key keeps one row and the loser removes its file.
   */
  #convert(actor: Actor, record: RecordRow, version: number, source: Source, format: string): Promise<PdfSource> {
    const key = `${record.res_id}/${version}`
    const running = this.#conversions.get(key)
    if (running) return running.then((pdf) => ({ row: pdf.row }))
    const conversion = this.#convertNow(actor, record, version, source, format).finally(() =>
      this.#conversions.delete(key),
    )
    this.#conversions.set(key, conversion)
    return conversion
  }

  async #convertNow(
    actor: Actor,
    record: RecordRow,
    version: number,
    source: Source,
    format: string,
  ): Promise<PdfSource> {
    if (conversionKind(format) === 'none')
      fail('CONVERSION_FAILED', { detail: `format ${normaliseFormat(format) || '(none)'} cannot be converted to PDF` })
    const converter = this.#context.converter
    if (!converter) fail('CONVERSION_FAILED', { detail: 'conversion to PDF is disabled on this server' })
    const original = await this.#readVerified(actor, record.res_id, source)
    let pdf: Uint8Array
    try {
      pdf = await converter.convert({ bytes: original.bytes, format })
    } catch (error) {
      if (isDomainError(error)) throw error
      throw domainError('CONVERSION_FAILED', { detail: error instanceof Error ? error.message : String(error) })
    }
    const area = await this.#db
      .selectFrom('docservers as d')
      .leftJoin('docserver_types as t', 't.docserver_type_id', 'd.docserver_type_id')
      .select(['d.docserver_id', 'd.path_template', 't.fingerprint_mode'])
      .where('d.docserver_type_id', '=', 'CONVERT')
      .where('d.is_readonly', '=', 'N')
      .where('d.coll_id', '=', 'letterbox_coll')
      .orderBy('d.id')
      .limit(1)
      .executeTakeFirst()
    if (!area) fail('CONVERSION_FAILED', { detail: 'no storage area of type CONVERT is available' })
    let stored: StoredDocument
    try {
      stored = await this.#store.write(area.path_template, 'pdf', pdf, this.#context.clock.now())
    } catch (error) {
      // A store that cannot be reached answers 503, as every other store error does.
      if (isDomainError(error) && error.kind === 'unavailable') throw error
      this.#context.logger.error({ err: error, resId: record.res_id }, 'converted PDF could not be stored')
      fail('CONVERSION_FAILED', { detail: 'the converted PDF could not be stored' })
    }
    const algorithm = fingerprintAlgorithm(area.fingerprint_mode)
    const digest =
      algorithm === 'sha256'
        ? { fingerprint: stored.sha256, sha256: stored.sha256, size: stored.size }
        : digestOf(pdf, algorithm)
    const values = {
      res_id: record.res_id,
      type: 'PDF',
      version,
      docserver_id: area.docserver_id,
      path: stored.path,
      filename: stored.filename,
      fingerprint: digest.fingerprint,
      filesize: stored.size,
    }
    try {
      const inserted = await this.#db
        .insertInto('adr_letterbox')
        .values(values)
        .onConflict((oc) => oc.columns(['res_id', 'type', 'version']).doNothing())
        .returning('id')
        .executeTakeFirst()
      if (inserted) return { row: { ...values, id: inserted.id }, fresh: { bytes: pdf, digest } }
    } catch (error) {
      await this.#store.remove(stored.key)
      throw error
    }
    // Another server converted the same version meanwhile: keep its row, drop this file.
    await this.#store.remove(stored.key)
    const winner = await this.#adr(record.res_id, 'PDF', version)
    if (!winner) fail('CONVERSION_FAILED', { detail: 'the converted PDF row vanished' })
    return { row: winner }
  }

  /** Reads a whole stored file once and checks it against its row; a row without fingerprint gets one. */
  async #readVerified(actor: Actor, resId: number, source: Source, located?: LocatedFile): Promise<DigestedFile> {
    const file = located ?? (await locateFile(this.#db, this.#context.docservers, source.ref, this.#areas))
    const { bytes, digest } =
      file.localPath !== null ? await this.#files.read(file) : await readDigestedFrom(this.#store, file)
    if (file.expected === null) await this.#backfill(source, digest)
    else if (!digestMatches(file, digest)) {
      await this.#integrityFailure(actor, resId, source, file, digest)
      fail('FINGERPRINT_MISMATCH')
    }
    if (digest.size === 0) fail('FILE_INFO_UNAVAILABLE')
    return { bytes, digest }
  }

  /** A large file streamed from its store, hashed on the way (see verifyingStream). */
  async #stream(actor: Actor, resId: number, source: Source, located: LocatedFile, mimeType: string) {
    let file = located
    if (file.expected === null) {
      // A row without fingerprint (reference back-fill): one hashing pass first, once in the file's life.
      const digest = await digestFile(this.#store, file)
      await this.#backfill(source, digest)
      file = { ...file, expected: digest.fingerprint, expectedSize: digest.size }
    }
    if (file.expectedSize !== null && file.expectedSize !== file.size) {
      // Wrong size: known before any byte is sent, so the caller still gets the proper 400.
      await this.#integrityFailure(actor, resId, source, file, null)
      fail('FINGERPRINT_MISMATCH')
    }
    // `end` bounds the read to the size announced in Content-Length even if the file grows meanwhile.
    const bytes = await this.#store.read(file.key, { start: 0, end: Math.max(0, file.size - 1) })
    const body = verifyingStream(bytes, file, (digest) => {
      void this.#integrityFailure(actor, resId, source, file, digest)
    })
    const digest: FileDigest = {
      fingerprint: file.expected ?? '',
      sha256: file.algorithm === 'sha256' ? (file.expected ?? '') : '',
      size: file.size,
    }
    return { file: { mimeType, size: file.size, body }, digest }
  }

  async #backfill(source: Source, digest: FileDigest): Promise<void> {
    const set = { fingerprint: digest.fingerprint, filesize: digest.size }
    if (source.key.table === 'res_letterbox')
      await this.#db.updateTable('res_letterbox').set(set).where('res_id', '=', source.key.resId).execute()
    else if (source.key.table === 'res_attachments')
      await this.#db.updateTable('res_attachments').set(set).where('res_id', '=', source.key.id).execute()
    else await this.#db.updateTable('adr_letterbox').set(set).where('id', '=', source.key.id).execute()
    this.#context.logger.warn(
      { file: source.label, ...source.key, fingerprint: digest.fingerprint },
      'stored file had no fingerprint; computed and saved',
    )
  }

  /** Logs and journals a file that does not match its row; never throws (the read fails anyway). */
  async #integrityFailure(
    actor: Actor,
    resId: number,
    source: Source,
    file: LocatedFile,
    digest: FileDigest | null,
  ): Promise<void> {
    const info = digest
      ? `${source.label}: stored fingerprint ${file.expected}, computed ${digest.fingerprint} (${digest.size} bytes)`
      : `${source.label}: stored size ${file.expectedSize} bytes, found ${file.size}`
    this.#context.logger.error(
      {
        resId,
        file: source.label,
        key: file.key,
        expected: file.expected,
        actual: digest?.fingerprint ?? null,
        expectedSize: file.expectedSize,
        size: digest?.size ?? file.size,
      },
      'Fingerprints do not match',
    )
    const journal = this.#journal
    if (!journal) return
    try {
      const sha256 = file.algorithm === 'sha256' && file.expected ? file.expected : (digest?.sha256 ?? '')
      await this.#db
        .transaction()
        .execute((trx) =>
          journal.integrityCheck(trx, { resId, sha256, size: file.expectedSize ?? file.size, actor, ok: false, info }),
        )
    } catch (error) {
      this.#context.logger.error({ err: error, resId }, 'integrity-check failure could not be journalled')
    }
  }

  /** The VIEW history row (content, originalContent) and the journal consultation, committed before the answer. */
  #afterRead(actor: Actor, resId: number, digest: FileDigest, view: boolean, meta: ContentReadMeta): Promise<void> {
    return this.#audit.record({ actor, resId, sha256: digest.sha256, size: digest.size, view, remoteIp: meta.remoteIp })
  }

  /**
   * Draws the configured watermark. A PDF that cannot take one (encrypted, damaged) is served without it,
   * as the reference does, with a warning in the log: the same caller may read the unmarked original through
   * originalContent anyway, so refusing would protect nothing and only hide the document.
   */
  async #watermark(source: DigestedFile, record: RecordRow): Promise<Uint8Array> {
    const pdf = source.bytes
    const options = this.#settings.watermark
    const text = renderWatermarkText(options.text, {
      record,
      now: this.#context.clock.now(),
      timeZone: this.#settings.timeZone,
    })
    const cached = this.#watermarks.get(source.digest.fingerprint, text)
    if (cached) return cached
    try {
      const marked = await this.#context.watermarker.watermark(pdf, text, options)
      this.#watermarks.set(source.digest.fingerprint, text, marked)
      return marked
    } catch (error) {
      if (isDomainError(error) && (error.code === 'PDF_ENCRYPTED' || error.code === 'PDF_UNREADABLE')) {
        this.#context.logger.warn({ resId: record.res_id, code: error.code }, 'PDF served without watermark')
        return pdf
      }
      throw error
    }
  }
}

function recordSource(record: RecordRow): Source {
  return { ref: record, key: { table: 'res_letterbox', resId: record.res_id }, label: 'original' }
}

function adrSource(row: AdrRow, label: string): Source {
  return { ref: row, key: { table: 'adr_letterbox', id: row.id }, label }
}

/** The extension of a stored file: its declared format, else its stored name's extension. */
function extensionOf(format: string | null, filename: string | null): string {
  const declared = normaliseFormat(format ?? '')
  if (declared) return declared
  const match = /\.([A-Za-z0-9]{1,10})$/.exec(filename ?? '')
  return match?.[1]?.toLowerCase() ?? ''
}

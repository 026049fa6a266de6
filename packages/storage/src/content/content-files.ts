import type {
  Actor,
  ContentFile,
  ContentLookup,
  ContentReadStore,
  Download,
  ReadDigest,
  ReadTrace,
  StoredConversion,
  VerifiedFile,
} from '@mailroom/core'
import { fail, isDomainError } from '@mailroom/core'
import { type Kysely, type Selectable, sql } from 'kysely'
import type { AdrLetterboxTable, Database, ResLetterboxTable } from '../database/schema.js'
import type { DocumentStore, StoredDocument } from '../docserver/document-store.js'
import { removeUnclaimedFile, rowsAfterFile } from '../docserver/file-then-rows.js'
import { StorageAreaCache } from '../docserver/storage-areas.js'
import type { ContentReaderContext } from './content-context.js'
import type { ContentSettings } from './content-settings.js'
import { FileReaderPool } from './file-reader-pool.js'
import { ReadAudit } from './read-audit.js'
import {
  digestFile,
  digestMatches,
  digestOf,
  fingerprintAlgorithm,
  type LocatedFile,
  locateFile,
  readDigestedFrom,
  readHead,
  type StoredFileRef,
  verifyingStream,
} from './stored-file.js'

type RecordRow = Selectable<ResLetterboxTable>
type AdrRow = Selectable<AdrLetterboxTable>

/** Which row a stored file belongs to, to back-fill a missing fingerprint. */
type RowKey =
  | { readonly table: 'res_letterbox'; readonly resId: number }
  | { readonly table: 'adr_letterbox'; readonly id: number }
  | { readonly table: 'res_attachments'; readonly id: number }

/** A stored file as the content reads hand it back: what core reads of it, its columns and its row. */
export interface StoredContentFile extends ContentFile {
  readonly ref: StoredFileRef
  readonly key: RowKey
}

/** The record's own file. */
export function recordFile(record: RecordRow): StoredContentFile {
  return { type: null, filename: record.filename, ref: record, key: { table: 'res_letterbox', resId: record.res_id } }
}

/** A file of one of the record's versions (adr_letterbox). */
function adrFile(row: AdrRow): StoredContentFile {
  return { type: row.type, filename: row.filename, ref: row, key: { table: 'adr_letterbox', id: row.id } }
}

/** An attachment's file. */
export function attachmentFile(row: StoredFileRef & { readonly res_id: number }): StoredContentFile {
  return { type: null, filename: row.filename, ref: row, key: { table: 'res_attachments', id: Number(row.res_id) } }
}

/**
 * Core's content read port over kysely and the document store. Every read re-hashes the bytes it serves:
 * whole files on the reading threads, large downloads on the way out (see verifyingStream). A file that no
 * longer matches its row is logged and journalled as a failed integrity check before the read is refused.
 */
export class StoredContentFiles implements ContentReadStore<StoredContentFile> {
  readonly #context: ContentReaderContext
  readonly #settings: ContentSettings
  readonly #store: DocumentStore
  readonly #areas = new StorageAreaCache()
  readonly #audit: ReadAudit
  readonly #files: FileReaderPool

  constructor(context: ContentReaderContext, settings: ContentSettings) {
    this.#context = context
    this.#settings = settings
    this.#store = context.docservers
    this.#audit = new ReadAudit({
      db: context.db,
      journal: context.journal,
      clock: context.clock,
      logger: context.logger,
    })
    this.#files = new FileReaderPool(settings.readThreads)
  }

  /** Stops the reading threads (reads after this run on the event loop). */
  close(): Promise<void> {
    return this.#files.close()
  }

  get #db(): Kysely<Database> {
    return this.#context.db
  }

  async lookUp(actor: Actor, resId: number, withPdf: boolean): Promise<ContentLookup<StoredContentFile> | null> {
    const condition = await this.#context.perimeter.condition(this.#db, actor)
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
    if (!found) return null
    const { __allowed, __pdf, ...record } = found
    return {
      record: {
        resId: record.res_id,
        subject: record.subject,
        format: record.format,
        filename: record.filename,
        typist: record.typist,
        version: record.version,
        columns: record,
        original: recordFile(record),
      },
      allowed: Boolean(__allowed),
      currentPdf: __pdf ? adrFile(__pdf) : null,
    }
  }

  async versionFile(resId: number, types: readonly string[], version: number): Promise<StoredContentFile | null> {
    const row = await this.#db
      .selectFrom('adr_letterbox')
      .selectAll()
      .where('res_id', '=', resId)
      .where('version', '=', version)
      .where('type', 'in', [...types])
      .orderBy('type', 'desc')
      .limit(1)
      .executeTakeFirst()
    return row ? adrFile(row) : null
  }

  /** Reads a whole stored file once and checks it against its row; a row without fingerprint gets one. */
  async read(
    actor: Actor,
    resId: number,
    file: StoredContentFile,
    label: string,
    located?: LocatedFile,
  ): Promise<VerifiedFile> {
    const found = located ?? (await locateFile(this.#db, this.#store, file.ref, this.#areas))
    const { bytes, digest } =
      found.localPath !== null ? await this.#files.read(found) : await readDigestedFrom(this.#store, found)
    if (found.expected === null) await this.#backfill(file, label, digest)
    else if (!digestMatches(found, digest)) {
      await this.#integrityFailure(actor, resId, label, found, digest)
      fail('FINGERPRINT_MISMATCH')
    }
    if (digest.size === 0) fail('FILE_INFO_UNAVAILABLE')
    return { bytes, digest }
  }

  async download(actor: Actor, resId: number, file: StoredContentFile, label: string): Promise<Download> {
    const located = await locateFile(this.#db, this.#store, file.ref, this.#areas)
    if (located.size <= this.#settings.verifyBeforeSendMaxBytes)
      return { kind: 'verified', file: await this.read(actor, resId, file, label, located) }
    return {
      kind: 'stream',
      size: located.size,
      head: (bytes) => readHead(this.#store, located, bytes),
      open: () => this.#stream(actor, resId, file, label, located),
    }
  }

  /** A large file streamed from its store, hashed on the way (see verifyingStream). */
  async #stream(actor: Actor, resId: number, source: StoredContentFile, label: string, located: LocatedFile) {
    let file = located
    if (file.expected === null) {
      // A row without fingerprint (reference back-fill): one hashing pass first, once in the file's life.
      const digest = await digestFile(this.#store, file)
      await this.#backfill(source, label, digest)
      file = { ...file, expected: digest.fingerprint, expectedSize: digest.size }
    }
    if (file.expectedSize !== null && file.expectedSize !== file.size) {
      // Wrong size: known before any byte is sent, so the caller still gets the proper 400.
      await this.#integrityFailure(actor, resId, label, file, null)
      fail('FINGERPRINT_MISMATCH')
    }
    // `end` bounds the read to the size announced in Content-Length even if the file grows meanwhile.
    const bytes = await this.#store.read(file.key, { start: 0, end: Math.max(0, file.size - 1) })
    const body = verifyingStream(bytes, file, (digest) => {
      void this.#integrityFailure(actor, resId, label, file, digest)
    })
    const digest: ReadDigest = {
      fingerprint: file.expected ?? '',
      sha256: file.algorithm === 'sha256' ? (file.expected ?? '') : '',
      size: file.size,
    }
    return { body, digest }
  }

  async storeConversion(resId: number, version: number, pdf: Uint8Array): Promise<StoredConversion<StoredContentFile>> {
    const area = await this.#areas.writable(this.#db, 'CONVERT')
    if (!area) fail('CONVERSION_FAILED', { detail: 'no storage area of type CONVERT is available' })
    let stored: StoredDocument
    try {
      stored = await this.#store.write(area.pathTemplate, 'pdf', pdf, this.#context.clock.now())
    } catch (error) {
      // A store that cannot be reached answers 503, as every other store error does.
      if (isDomainError(error) && error.kind === 'unavailable') throw error
      this.#context.logger.error({ err: error, resId }, 'converted PDF could not be stored')
      fail('CONVERSION_FAILED', { detail: 'the converted PDF could not be stored' })
    }
    const algorithm = fingerprintAlgorithm(area.fingerprintMode)
    const digest =
      algorithm === 'sha256'
        ? { fingerprint: stored.sha256, sha256: stored.sha256, size: stored.size }
        : digestOf(pdf, algorithm)
    const values = {
      res_id: resId,
      type: 'PDF',
      version,
      docserver_id: area.docserverId,
      path: stored.path,
      filename: stored.filename,
      fingerprint: digest.fingerprint,
      filesize: stored.size,
    }
    const files = { store: this.#store, logger: this.#context.logger }
    const inserted = await rowsAfterFile(
      files,
      () => stored,
      () =>
        this.#db
          .insertInto('adr_letterbox')
          .values(values)
          .onConflict((oc) => oc.columns(['res_id', 'type', 'version']).doNothing())
          .returning('id')
          .executeTakeFirst(),
      'converted PDF whose row failed could not be removed',
    )
    if (inserted) return { file: adrFile({ ...values, id: inserted.id }), fresh: { bytes: pdf, digest } }
    // Another server converted the same version meanwhile: keep its row, drop this file.
    await removeUnclaimedFile(files, stored, 'converted PDF of a version converted elsewhere could not be removed')
    const winner = await this.versionFile(resId, ['PDF'], version)
    if (!winner) fail('CONVERSION_FAILED', { detail: 'the converted PDF row vanished' })
    return { file: winner }
  }

  /** The signatory of a signed record: the latest diffusion-list signatory. */
  async signatoryOf(resId: number): Promise<number | null> {
    const row = await this.#db
      .selectFrom('listinstance')
      .select('item_id')
      .where('res_id', '=', resId)
      .where('signatory', '=', true)
      .orderBy('listinstance_id', 'desc')
      .limit(1)
      .executeTakeFirst()
    return row?.item_id ?? null
  }

  recordColumns(resId: number): Promise<Readonly<Record<string, unknown>>> {
    return this.#db.selectFrom('res_letterbox').selectAll().where('res_id', '=', resId).executeTakeFirstOrThrow()
  }

  /** The read's history row and journal consultation, committed before the answer (see ReadAudit). */
  trace(trace: ReadTrace): Promise<void> {
    const { digest } = trace
    return this.#audit.record({
      actor: trace.actor,
      resId: trace.resId,
      sha256: digest.sha256,
      size: digest.size,
      history: trace.history,
      remoteIp: trace.remoteIp,
    })
  }

  async #backfill(file: StoredContentFile, label: string, digest: ReadDigest): Promise<void> {
    const set = { fingerprint: digest.fingerprint, filesize: digest.size }
    const { key } = file
    if (key.table === 'res_letterbox')
      await this.#db.updateTable('res_letterbox').set(set).where('res_id', '=', key.resId).execute()
    else if (key.table === 'res_attachments')
      await this.#db.updateTable('res_attachments').set(set).where('res_id', '=', key.id).execute()
    else await this.#db.updateTable('adr_letterbox').set(set).where('id', '=', key.id).execute()
    this.#context.logger.warn(
      { file: label, ...key, fingerprint: digest.fingerprint },
      'stored file had no fingerprint; computed and saved',
    )
  }

  /** Logs and journals a file that does not match its row; never throws (the read fails anyway). */
  async #integrityFailure(
    actor: Actor,
    resId: number,
    label: string,
    file: LocatedFile,
    digest: ReadDigest | null,
  ): Promise<void> {
    const info = digest
      ? `${label}: stored fingerprint ${file.expected}, computed ${digest.fingerprint} (${digest.size} bytes)`
      : `${label}: stored size ${file.expectedSize} bytes, found ${file.size}`
    this.#context.logger.error(
      {
        resId,
        file: label,
        key: file.key,
        expected: file.expected,
        actual: digest?.fingerprint ?? null,
        expectedSize: file.expectedSize,
        size: digest?.size ?? file.size,
      },
      'Fingerprints do not match',
    )
    const journal = this.#context.journal
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
}

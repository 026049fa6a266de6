import { type Actor, isRoot } from '../actors/actor.js'
import { fail } from '../errors/domain-error.js'
import { contentFilename, versionFilename } from './content-filename.js'
import type {
  ContentFile,
  ContentReadStore,
  ContentRecord,
  ReadDigest,
  StoredConversion,
  VerifiedFile,
} from './content-read-ports.js'
import {
  parseContentMode,
  parseContentResId,
  parseOriginalMode,
  parseSignedVersion,
  parseVersionParam,
  parseVersionType,
  parseWatermarkFlag,
} from './content-request.js'
import type { ContentBase64Body, ContentReadMeta, ContentServices } from './content-services.js'
import { servedMimeType } from './content-view.js'
import type { MimeTypeSniffer, PdfConverter } from './ports.js'
import {
  base64Of,
  contentViewHistory,
  converterFor,
  convertToPdf,
  extensionOf,
  SNIFF_HEAD,
  type WatermarkDependencies,
  watermarkPdf,
} from './serve-file.js'

/** What the content reads need from the outside. */
export interface ContentReadDependencies<F extends ContentFile> extends WatermarkDependencies {
  readonly files: ContentReadStore<F>
  readonly converter: PdfConverter | null
  readonly sniffer: MimeTypeSniffer
}

/** The three content reads of ContentServices. */
export type ContentReads = Pick<ContentServices, 'readContent' | 'readOriginalContent' | 'readVersionContent'>

/**
 * The content reads over their ports. Check order (reference §4): resId, the query parameters, perimeter (a
 * non-root caller gets 403 even for a record that does not exist, as in the reference; root users get 400
 * `Document does not exist`), record, file, then what reading the file finds (storage area, file, fingerprint).
 * Every read leaves its traces (journal consultation; VIEW history for content and originalContent) before
 * it is answered.
 */
export function createContentReads<F extends ContentFile>(deps: ContentReadDependencies<F>): ContentReads {
  const { files } = deps
  /** Conversions running in this process, by `resId/version`: concurrent first reads share one. */
  const conversions = new Map<string, Promise<StoredConversion<F>>>()

  async function lookUp(actor: Actor, resId: number, withPdf: boolean) {
    const found = await files.lookUp(actor, resId, withPdf)
    // A record that does not exist is out of perimeter for non-root callers (reference: the right check comes first).
    if (!found?.allowed) fail(isRoot(actor) && !found ? 'DOCUMENT_NOT_FOUND' : 'OUT_OF_PERIMETER')
    if (!found.record.filename) fail('DOCUMENT_HAS_NO_FILE')
    return found
  }

  function trace(actor: Actor, resId: number, digest: ReadDigest, view: boolean, meta: ContentReadMeta) {
    return files.trace({ actor, resId, digest, history: view ? contentViewHistory(resId) : null, ...meta })
  }

  /**
   * Converts an original to PDF on first read and stores it as adr type PDF. Lazy rather than at creation:
   * create stays fast and never fails or waits on LibreOffice, records that are never opened cost nothing,
   * and a conversion that failed (LibreOffice missing, queue full) is simply retried by the next read.
   * Concurrent first reads in this process share one conversion; across processes the store keeps one row.
   */
  function convert(
    actor: Actor,
    record: ContentRecord<F>,
    version: number,
    source: { file: F; label: string; format: string },
  ): Promise<StoredConversion<F>> {
    const key = `${record.resId}/${version}`
    const running = conversions.get(key)
    if (running) return running.then((pdf) => ({ file: pdf.file }))
    const conversion = (async () => {
      const converter = converterFor(deps.converter, source.format)
      const original = await files.read(actor, record.resId, source.file, source.label)
      const pdf = await convertToPdf(converter, original.bytes, source.format)
      return files.storeConversion(record.resId, version, pdf)
    })().finally(() => conversions.delete(key))
    conversions.set(key, conversion)
    return conversion
  }

  /** The signed PDF of the current version if any, else its PDF conversion (made now when missing). */
  async function currentPdf(actor: Actor, record: ContentRecord<F>): Promise<StoredConversion<F>> {
    const file = await files.versionFile(record.resId, ['PDF', 'SIGN'], record.version)
    if (file) return { file }
    return convert(actor, record, record.version, originalSource(record))
  }

  /** The PDF conversion of a version: stored, else made from that version's original (current or DOC row). */
  async function versionPdf(actor: Actor, record: ContentRecord<F>, version: number): Promise<StoredConversion<F>> {
    const file = await files.versionFile(record.resId, ['PDF'], version)
    if (file) return { file }
    if (version === record.version) return convert(actor, record, version, originalSource(record))
    const original = (await files.versionFile(record.resId, ['DOC'], version)) ?? fail('VERSION_TYPE_HAS_NO_FILE')
    return convert(actor, record, version, {
      file: original,
      label: `original of version ${version}`,
      format: extensionOf(null, original.filename),
    })
  }

  return {
    async readContent(actor, resIdText, query, meta = {}) {
      const resId = parseContentResId(resIdText)
      const mode = parseContentMode(query.mode)
      const watermark = parseWatermarkFlag(query.watermark) && deps.settings.watermark.enabled
      const { record, currentPdf: stored } = await lookUp(actor, resId, true)
      const pdf = stored ? { file: stored } : await currentPdf(actor, record)
      const label = 'converted PDF'
      const filename = contentFilename(record.subject, 'pdf')
      const disposition = mode === 'view' ? 'inline' : 'attachment'
      let verified: VerifiedFile | undefined = pdf.fresh
      if (!verified && mode !== 'base64' && !watermark) {
        const download = await files.download(actor, resId, pdf.file, label)
        if (download.kind === 'stream') {
          const { body, digest } = await download.open()
          await trace(actor, resId, digest, true, meta)
          return {
            kind: 'file',
            file: { mimeType: 'application/pdf', size: download.size, body, filename, disposition },
          }
        }
        verified = download.file
      }
      verified ??= await files.read(actor, resId, pdf.file, label)
      const served = watermark ? await watermarkPdf(deps, verified, resId, record.columns) : verified.bytes
      const mimeType = servedMimeType(await deps.sniffer.sniff(served.subarray(0, SNIFF_HEAD)), 'pdf')
      await trace(actor, resId, verified.digest, true, meta)
      if (mode === 'base64') {
        const originalFormat = record.format ?? ''
        const body: ContentBase64Body = {
          encodedDocument: base64Of(served),
          originalFormat,
          filename: contentFilename(record.subject, originalFormat || 'pdf'),
          mimeType,
          originalCreatorId: record.typist,
          ...(pdf.file.type === 'SIGN' ? { signatoryId: (await files.signatoryOf(resId)) ?? record.typist } : {}),
        }
        return { kind: 'json', body }
      }
      return { kind: 'file', file: { mimeType, filename, disposition, size: served.length, body: served } }
    },

    async readOriginalContent(actor, resIdText, query, meta = {}) {
      const resId = parseContentResId(resIdText)
      const signedWanted = parseSignedVersion(query.signedVersion)
      const mode = parseOriginalMode(query.mode)
      const { record } = await lookUp(actor, resId, false)
      const signed = signedWanted ? await files.versionFile(resId, ['SIGN'], record.version) : null
      const file = signed ?? record.original
      const label = signed ? 'signed PDF' : 'original'
      const extension = signed ? 'pdf' : extensionOf(record.format, record.filename)
      const filename = contentFilename(record.subject, extension)
      const download = await files.download(actor, resId, file, label)
      if (mode !== 'base64' && download.kind === 'stream') {
        const head = await download.head(SNIFF_HEAD)
        const mimeType = servedMimeType(await deps.sniffer.sniff(head, extension), extension)
        const { body, digest } = await download.open()
        await trace(actor, resId, digest, true, meta)
        return { kind: 'file', file: { mimeType, size: download.size, body, filename, disposition: 'attachment' } }
      }
      const verified = download.kind === 'verified' ? download.file : await files.read(actor, resId, file, label)
      const mimeType = servedMimeType(await deps.sniffer.sniff(verified.bytes, extension), extension)
      await trace(actor, resId, verified.digest, true, meta)
      if (mode === 'base64') {
        return { kind: 'json', body: { encodedDocument: base64Of(verified.bytes), extension, filename, mimeType } }
      }
      const { bytes } = verified
      return { kind: 'file', file: { mimeType, filename, disposition: 'attachment', size: bytes.length, body: bytes } }
    },

    async readVersionContent(actor, resIdText, versionText, query) {
      const resId = parseContentResId(resIdText)
      const version = parseVersionParam(versionText)
      const type = parseVersionType(query.type)
      const { record } = await lookUp(actor, resId, false)
      if (version > record.version) fail('VERSION_INCORRECT')
      const pdf =
        type === 'PDF'
          ? await versionPdf(actor, record, version)
          : { file: (await files.versionFile(resId, [type], version)) ?? fail('VERSION_TYPE_HAS_NO_FILE') }
      const verified = pdf.fresh ?? (await files.read(actor, resId, pdf.file, `${type} of version ${version}`))
      const served = deps.settings.watermark.enabled
        ? await watermarkPdf(deps, verified, resId, record.columns)
        : verified.bytes
      await trace(actor, resId, verified.digest, false, {})
      return {
        encodedDocument: base64Of(served),
        filename: versionFilename(record.subject, version, extensionOf(null, pdf.file.filename) || 'pdf'),
      }
    },
  }
}

function originalSource<F extends ContentFile>(record: ContentRecord<F>) {
  return { file: record.original, label: 'original', format: record.format ?? '' }
}

import type { MimeTypeSniffer } from '@mailroom/core'
import { normaliseFormat } from '@mailroom/core/internal'
import { fileTypeFromBuffer } from 'file-type'

/** MIME type given to a zero-byte file; no format allows it, so the format check refuses it. */
export const EMPTY_MIME_TYPE = 'application/x-empty'

/** MIME type of bytes nothing recognises. */
export const UNKNOWN_MIME_TYPE = 'application/octet-stream'

// Legacy Office files are all OLE compound files: file-type says `cfb` and only the declared format tells
// which application wrote them. The refinement trusts the format only for this container, and only among
// the compound-file kinds, so a renamed executable still never passes as a document.
const COMPOUND_FILE_KINDS: Readonly<Record<string, string>> = {
  doc: 'application/msword',
  dot: 'application/msword',
  xls: 'application/vnd.ms-excel',
  xlt: 'application/vnd.ms-excel',
  ppt: 'application/vnd.ms-powerpoint',
  pps: 'application/vnd.ms-powerpoint',
  pot: 'application/vnd.ms-powerpoint',
  msg: 'application/vnd.ms-outlook',
}

const TEXT_SAMPLE = 64 * 1024

/**
 * The MIME type of a file from its bytes: `file-type` for binary formats (PDF, images, OOXML, ODF, RTF, XML,
 * ZIP, …), then text heuristics (`text/html`, `message/rfc822`, `text/plain`). `format` only refines legacy
 * Office compound files (see above). Empty input gives `application/x-empty`, anything else unknown
 * `application/octet-stream`.
 */
export async function sniffMimeType(bytes: Uint8Array, format?: string): Promise<string> {
  if (bytes.length === 0) return EMPTY_MIME_TYPE
  // A UTF-16 byte-order mark also matches an MP3 frame sync in file-type: decide text first.
  if (hasUtf16Bom(bytes)) {
    const utf16 = sniffText(bytes)
    if (utf16) return utf16
  }
  // The whole buffer, not a prefix: OOXML/ODF detection reads zip entries beyond the first kilobytes.
  const detected = await fileTypeFromBuffer(bytes)
  if (detected) {
    if (detected.ext === 'cfb') return COMPOUND_FILE_KINDS[normaliseFormat(format ?? '')] ?? detected.mime
    return detected.mime
  }
  return sniffText(bytes) ?? UNKNOWN_MIME_TYPE
}

/** The sniffer as the core's MimeTypeSniffer port. */
export const mimeTypeSniffer: MimeTypeSniffer = { sniff: sniffMimeType }

function hasUtf16Bom(bytes: Uint8Array): boolean {
  return (bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff)
}

function sniffText(bytes: Uint8Array): string | undefined {
  const sample = bytes.subarray(0, TEXT_SAMPLE)
  const text = decodeText(sample)
  if (text === undefined) return undefined
  const head = text.replace(/^\uFEFF/, '').trimStart()
  if (looksLikeHtml(head)) return 'text/html'
  if (looksLikeMail(head)) return 'message/rfc822'
  return 'text/plain'
}

/**
 * The text of the sample when it is text: UTF-16 with a BOM, valid UTF-8, or a single-byte charset
 * (Latin-1/Windows-1252, as libmagic reports `text/plain` for ISO-8859 text). NUL and most C0 controls mean binary.
 */
function decodeText(sample: Uint8Array): string | undefined {
  if (hasUtf16Bom(sample)) {
    const decoded = new TextDecoder(sample[0] === 0xff ? 'utf-16le' : 'utf-16be').decode(
      sample.subarray(0, sample.length & ~1),
    )
    return /[\u0000-\u0008\u000e-\u001a\ufffd]/.test(decoded) ? undefined : decoded
  }
  let controls = 0
  for (const b of sample) {
    if (b === 0) return undefined
    if (b < 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0d && b !== 0x0c && b !== 0x1b) controls++
  }
  if (controls > sample.length / 100) return undefined
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(sample)
  } catch {
    // A multi-byte sequence cut by the sample boundary is still UTF-8 text.
    if (sample.length === TEXT_SAMPLE) {
      try {
        return new TextDecoder('utf-8', { fatal: true }).decode(sample.subarray(0, trimPartialSequence(sample)))
      } catch {}
    }
    return new TextDecoder('latin1').decode(sample)
  }
}

function trimPartialSequence(sample: Uint8Array): number {
  const end = sample.length
  for (let i = 1; i <= 3 && end - i >= 0; i++) {
    const b = sample[end - i] ?? 0
    if ((b & 0xc0) === 0xc0) return end - i
    if ((b & 0xc0) !== 0x80) break
  }
  return end
}

const HTML_START =
  /^(<!--[\s\S]*?-->\s*)*<(!doctype\s+html|html|head|body|meta|title|table|div|p|h[1-6]|style|script)[\s>/]/i

function looksLikeHtml(head: string): boolean {
  return HTML_START.test(head)
}

// libmagic calls a text mail when it starts with one of these headers; more than one is asked here so a
// plain letter starting with "Subject:" stays text.
const MAIL_HEADER =
  /^(from|to|cc|subject|date|received|return-path|message-id|mime-version|content-type|delivered-to|reply-to|x-[a-z0-9-]+)\s*:/i
const STRONG_FIRST_LINE = /^(received|return-path|delivered-to|message-id|mime-version)\s*:|^From \S+/i

function looksLikeMail(head: string): boolean {
  const lines = head.split(/\r?\n/, 40)
  const first = lines[0] ?? ''
  let headers = 0
  for (const line of lines) {
    if (line === '') break
    if (/^[ \t]/.test(line)) continue
    if (!MAIL_HEADER.test(line) && !/^From \S+/.test(line)) return false
    headers++
  }
  return STRONG_FIRST_LINE.test(first) ? headers >= 1 : headers >= 2
}

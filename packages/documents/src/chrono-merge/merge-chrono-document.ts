import { type UnzipFileInfo, unzipSync, type Zippable, zipSync } from 'fflate'
import {
  type ChronoPictureKind,
  type ChronoPictures,
  swapDocxPictures,
  swapOdfPictures,
  taggedPictureKinds,
} from './chrono-pictures.js'
import {
  DRAWING_TEXT,
  replaceChronoPlaceholder,
  SPREADSHEET_TEXT,
  type TextLayout,
  WORDPROCESSING_TEXT,
} from './replace-chrono-placeholder.js'

/** The parts of a format that may hold the placeholder, and how their text is laid out. */
interface MergedPart {
  readonly name: RegExp
  readonly layout: TextLayout | null
}

const ODF_PARTS: readonly MergedPart[] = [{ name: /^(?:content|styles)\.xml$/, layout: null }]

/** How the tagged pictures of a format's parts are swapped (docx and ODF, as the reference's OpenTBS does). */
const PICTURE_SWAP: Readonly<Record<string, typeof swapDocxPictures>> = {
  docx: swapDocxPictures,
  odt: swapOdfPictures,
  ods: swapOdfPictures,
  odp: swapOdfPictures,
  odf: swapOdfPictures,
}

// The reference merges into these formats only (MergeController::mergeChronoDocument).
const PARTS_BY_FORMAT: Readonly<Record<string, readonly MergedPart[]>> = {
  docx: [{ name: /^word\/(?:document|header\d*|footer\d*)\.xml$/, layout: WORDPROCESSING_TEXT }],
  xlsx: [
    { name: /^xl\/sharedStrings\.xml$/, layout: SPREADSHEET_TEXT },
    { name: /^xl\/worksheets\/[^/]+\.xml$/, layout: SPREADSHEET_TEXT },
  ],
  pptx: [{ name: /^ppt\/slides\/[^/]+\.xml$/, layout: DRAWING_TEXT }],
  odt: ODF_PARTS,
  ods: ODF_PARTS,
  odp: ODF_PARTS,
  odf: ODF_PARTS,
}

/**
 * Above this much declared uncompressed content the file is stored as sent: the merge holds the whole
 * archive in memory, and a zip bomb must not take the server down. fflate never inflates an entry past its
 * declared size, so the declared sizes bound the memory.
 */
export const MAX_MERGED_EXPANSION = 256 * 1024 * 1024

// Office writes every entry with the DOS epoch; a fixed date also keeps the merge a function of its input.
const ENTRY_TIME = new Date(1980, 0, 1)

/** An office file that holds the chrono placeholder or tagged pictures, unpacked and ready to be filled. */
export interface ChronoMerge {
  /** The barcode / QR code pictures the file asks for (see chrono-pictures.ts); empty when none. */
  readonly pictures: ReadonlySet<ChronoPictureKind>
  /**
   * The file with every placeholder replaced by `chrono` (XML-escaped; '' for a record without a chrono),
   * and its tagged pictures replaced by `pictures` (a kind not given keeps its image and loses its tag).
   */
  fill(chrono: string, pictures?: ChronoPictures): Uint8Array
}

/**
 * The chrono merge of an office file (reference §2.2: the TBS field `[res_letterbox.alt_identifier]` and the
 * barcode / QR code pictures), or null when the file must be stored as sent: a format the reference does not
 * merge, bytes that are not a readable zip, or neither placeholder nor tagged picture in the text parts.
 * Pure: bytes in, bytes out, nothing written.
 *
 * Split in two so that a create learns whether its file depends on the chrono before it takes the chrono
 * counter's lock, and the unpacking is done by then.
 */
export function prepareChronoMerge(format: string, bytes: Uint8Array): ChronoMerge | null {
  const parts = PARTS_BY_FORMAT[format]
  if (parts === undefined) return null
  const layoutOf = (name: string): TextLayout | null | undefined => parts.find((p) => p.name.test(name))?.layout
  try {
    // First only the text parts: most files hold no placeholder and are kept without unpacking the rest.
    let expansion = 0
    const texts = unzipSync(bytes, {
      filter: (file) => {
        if (layoutOf(file.name) === undefined) return false
        expansion += file.originalSize
        return expansion <= MAX_MERGED_EXPANSION
      },
    })
    if (expansion > MAX_MERGED_EXPANSION) return null
    const decoder = new TextDecoder('utf-8', { fatal: true })
    const candidates = new Map<string, string>()
    const swap = PICTURE_SWAP[format.toLowerCase()]
    const pictures = new Set<ChronoPictureKind>()
    for (const [name, data] of Object.entries(texts)) {
      const xml = decoder.decode(data)
      const tagged = swap ? taggedPictureKinds(xml) : new Set<ChronoPictureKind>()
      for (const kind of tagged) pictures.add(kind)
      if (tagged.size > 0 || replaceChronoPlaceholder(xml, '', layoutOf(name) ?? null) !== null)
        candidates.set(name, xml)
    }
    if (candidates.size === 0) return null
    return unpack(bytes, candidates, layoutOf, swap && pictures.size > 0 ? { swap, kinds: pictures } : null)
  } catch {
    // Not a zip fflate reads (damaged, encrypted, another compression) or a part that is not UTF-8: the
    // format check already accepted the file, which is kept as sent.
    return null
  }
}

function unpack(
  bytes: Uint8Array,
  candidates: ReadonlyMap<string, string>,
  layoutOf: (name: string) => TextLayout | null | undefined,
  tagged: { readonly swap: typeof swapDocxPictures; readonly kinds: ReadonlySet<ChronoPictureKind> } | null,
): ChronoMerge | null {
  // Entries in archive order (ODF needs `mimetype` first) with their compression kept: stored stays stored.
  const entries: UnzipFileInfo[] = []
  let expansion = 0
  const all = unzipSync(bytes, {
    filter: (file) => {
      entries.push(file)
      expansion += file.originalSize
      return expansion <= MAX_MERGED_EXPANSION
    },
  })
  if (expansion > MAX_MERGED_EXPANSION) return null
  return {
    pictures: tagged?.kinds ?? new Set(),
    fill(chrono: string, pictures: ChronoPictures = {}): Uint8Array {
      // Only the entries that change are re-encoded; the others keep their bytes.
      const texts = new Map(candidates)
      const changed = new Map<string, string | Uint8Array>()
      for (const [name, xml] of candidates) {
        const merged = replaceChronoPlaceholder(xml, chrono, layoutOf(name) ?? null)
        if (merged === null) continue
        texts.set(name, merged)
        changed.set(name, merged)
      }
      if (tagged)
        for (const [name, data] of tagged.swap(withPackageParts(texts, all), [...candidates.keys()], pictures))
          changed.set(name, data)
      const encoder = new TextEncoder()
      const dataOf = (name: string): Uint8Array => {
        const data = changed.get(name)
        if (data === undefined) return all[name] as Uint8Array
        return typeof data === 'string' ? encoder.encode(data) : data
      }
      const zippable: Zippable = {}
      for (const entry of entries)
        zippable[entry.name] = [dataOf(entry.name), { level: entry.compression === 0 ? 0 : 6, mtime: ENTRY_TIME }]
      // New entries (pictures, a header's first .rels) after the others: ODF's `mimetype` stays first.
      for (const name of changed.keys()) {
        if (!(name in zippable))
          zippable[name] = [dataOf(name), { level: name.endsWith('.png') ? 0 : 6, mtime: ENTRY_TIME }]
      }
      return zipSync(zippable)
    },
  }
}

/** The merged text parts, plus the package parts a picture swap edits (relationships, content types, manifest). */
function withPackageParts(
  texts: ReadonlyMap<string, string>,
  all: Readonly<Record<string, Uint8Array>>,
): Map<string, string> {
  const parts = new Map(texts)
  const decoder = new TextDecoder()
  for (const [name, data] of Object.entries(all)) {
    if (parts.has(name)) continue
    if (name === '[Content_Types].xml' || name === 'META-INF/manifest.xml' || name.endsWith('.rels'))
      parts.set(name, decoder.decode(data))
  }
  return parts
}

/** `bytes` with the chrono merged in, or `bytes` itself (the same array) when the file is stored as sent. */
export function mergeChronoDocument(format: string, bytes: Uint8Array, chrono: string): Uint8Array {
  return prepareChronoMerge(format, bytes)?.fill(chrono) ?? bytes
}

/**
 * The pictures of an office file that the reference's chrono merge replaces (reference §2.2,
 * `MergeController::mergeChronoDocument`): a picture whose alternative text (docx) or title/description (odt)
 * holds the TBS tag `[attachments.chronoBarCode…]` or `[attachments.chronoQrCode…]` gets the record's barcode
 * or QR code instead of its image, and loses the tag, as OpenTBS's `ope=changepic` does. Pure string work over
 * the archive's parts; the images are rendered elsewhere (chrono-images.ts).
 */

export type ChronoPictureKind = 'barCode' | 'qrCode'

/** PNG bytes of the pictures to put in; a kind left out keeps its pictures' images (only the tag goes). */
export type ChronoPictures = Partial<Readonly<Record<ChronoPictureKind, Uint8Array>>>

const TAG = /\[attachments\.chrono(BarCode|QrCode)(?:;[^\]]*)?\]/gi

function kindOf(name: string): ChronoPictureKind {
  return name.toLowerCase() === 'barcode' ? 'barCode' : 'qrCode'
}

/** The picture kinds tagged in one XML part. */
export function taggedPictureKinds(xml: string): Set<ChronoPictureKind> {
  const kinds = new Set<ChronoPictureKind>()
  for (const match of xml.matchAll(TAG)) kinds.add(kindOf(match[1] as string))
  return kinds
}

/** The file names the pictures take inside the archive (one per kind, shared by every part). */
const MEDIA_NAME: Readonly<Record<ChronoPictureKind, string>> = {
  barCode: 'mailroom-chrono-barcode.png',
  qrCode: 'mailroom-chrono-qrcode.png',
}
const RELATIONSHIP_ID: Readonly<Record<ChronoPictureKind, string>> = {
  barCode: 'rIdMailroomChronoBarCode',
  qrCode: 'rIdMailroomChronoQrCode',
}
const IMAGE_RELATIONSHIP = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships/image'

/** The archive's XML entries, by name, as text. */
export type ArchiveParts = ReadonlyMap<string, string>

/** One tagged picture block with its tag removed and the picture kind it asked for (the first tag wins). */
function untag(block: string): { block: string; kind: ChronoPictureKind } | null {
  let kind: ChronoPictureKind | null = null
  const cleaned = block.replace(TAG, (_tag, name: string) => {
    kind ??= kindOf(name)
    return ''
  })
  return kind === null ? null : { block: cleaned, kind }
}

/**
 * docx: the DrawingML pictures (`<w:drawing>`) of the parts named, tagged in `<wp:docPr descr|title>`. A
 * swapped picture points to a relationship of its own part (added to the part's `.rels`), so other pictures
 * that shared its image keep theirs. Returns the changed and added entries.
 */
export function swapDocxPictures(
  parts: ArchiveParts,
  partNames: readonly string[],
  pictures: ChronoPictures,
): Map<string, string | Uint8Array> {
  const out = new Map<string, string | Uint8Array>()
  const used = new Set<ChronoPictureKind>()
  for (const partName of partNames) {
    const xml = parts.get(partName)
    if (xml === undefined) continue
    const kindsHere = new Set<ChronoPictureKind>()
    const swapped = xml.replace(/<w:drawing>[\s\S]*?<\/w:drawing>/g, (drawing) => {
      const docPr = /<wp:docPr\b[^>]*>/.exec(drawing)
      const tagged = docPr ? untag(docPr[0]) : null
      if (!docPr || !tagged) return drawing
      let result = drawing.replace(docPr[0], () => tagged.block)
      if (pictures[tagged.kind]) {
        const embed = /(<a:blip\b[^>]*?\br:embed=")[^"]*(")/
        if (embed.test(result)) {
          result = result.replace(embed, `$1${RELATIONSHIP_ID[tagged.kind]}$2`)
          kindsHere.add(tagged.kind)
        }
      }
      return result
    })
    if (swapped === xml) continue
    out.set(partName, swapped)
    if (kindsHere.size === 0) continue
    const slash = partName.lastIndexOf('/')
    // Every part this runs on sits in word/, so the picture is media/… relative to it.
    const relsName = `${partName.slice(0, slash + 1)}_rels/${partName.slice(slash + 1)}.rels`
    let rels =
      (out.get(relsName) as string | undefined) ??
      parts.get(relsName) ??
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"></Relationships>'
    for (const kind of kindsHere) {
      used.add(kind)
      if (rels.includes(`Id="${RELATIONSHIP_ID[kind]}"`)) continue
      const relationship = `<Relationship Id="${RELATIONSHIP_ID[kind]}" Type="${IMAGE_RELATIONSHIP}" Target="media/${MEDIA_NAME[kind]}"/>`
      rels = rels.replace(/<\/Relationships>\s*$/, `${relationship}</Relationships>`)
    }
    out.set(relsName, rels)
  }
  for (const kind of used) out.set(`word/media/${MEDIA_NAME[kind]}`, pictures[kind] as Uint8Array)
  if (used.size > 0) {
    const types = parts.get('[Content_Types].xml')
    if (types !== undefined && !/<Default\b[^>]*\bExtension="png"/i.test(types)) {
      out.set(
        '[Content_Types].xml',
        types.replace(/<\/Types>\s*$/, '<Default Extension="png" ContentType="image/png"/></Types>'),
      )
    }
  }
  return out
}

/**
 * odt (and the other ODF formats): the frames (`<draw:frame>`) of the parts named, tagged in their
 * `<svg:title>` or `<svg:desc>`; the swapped picture is added to the manifest.
 */
export function swapOdfPictures(
  parts: ArchiveParts,
  partNames: readonly string[],
  pictures: ChronoPictures,
): Map<string, string | Uint8Array> {
  const out = new Map<string, string | Uint8Array>()
  const used = new Set<ChronoPictureKind>()
  for (const partName of partNames) {
    const xml = parts.get(partName)
    if (xml === undefined) continue
    const swapped = xml.replace(/<draw:frame\b[\s\S]*?<\/draw:frame>/g, (frame) => {
      let kind: ChronoPictureKind | null = null
      const cleaned = frame.replace(
        /<svg:(title|desc)>([\s\S]*?)<\/svg:\1>/g,
        (whole, element: string, text: string) => {
          const tagged = untag(text)
          if (!tagged) return whole
          kind ??= tagged.kind
          return `<svg:${element}>${tagged.block}</svg:${element}>`
        },
      )
      if (kind === null) return frame
      const chosen: ChronoPictureKind = kind
      if (!pictures[chosen]) return cleaned
      const href = /(<draw:image\b[^>]*?\bxlink:href=")[^"]*(")/
      if (!href.test(cleaned)) return cleaned
      used.add(chosen)
      return cleaned.replace(href, `$1Pictures/${MEDIA_NAME[chosen]}$2`)
    })
    if (swapped !== xml) out.set(partName, swapped)
  }
  for (const kind of used) out.set(`Pictures/${MEDIA_NAME[kind]}`, pictures[kind] as Uint8Array)
  const manifest = parts.get('META-INF/manifest.xml')
  if (manifest !== undefined && used.size > 0) {
    let updated = manifest
    for (const kind of used) {
      const path = `Pictures/${MEDIA_NAME[kind]}`
      if (updated.includes(`manifest:full-path="${path}"`)) continue
      updated = updated.replace(
        /<\/manifest:manifest>\s*$/,
        `<manifest:file-entry manifest:full-path="${path}" manifest:media-type="image/png"/></manifest:manifest>`,
      )
    }
    out.set('META-INF/manifest.xml', updated)
  }
  return out
}

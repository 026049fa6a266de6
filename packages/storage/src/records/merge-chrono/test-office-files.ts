import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate'

// Minimal office files for tests: just the parts the sniffer and the merge look at. file-type recognises
// OOXML by the main part named in [Content_Types].xml, ODF by a first, stored `mimetype` entry.

const contentTypes = (main: string, partName: string) =>
  `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="xml" ContentType="application/xml"/><Override PartName="${partName}" ContentType="${main}"/></Types>`

/** A .docx whose body holds `paragraphs` (raw `w:p` inner XML each) and optional header parts. */
export function docx(paragraphs: readonly string[], extra: Readonly<Record<string, string>> = {}): Uint8Array {
  const body = paragraphs.map((p) => `<w:p>${p}</w:p>`).join('')
  return zipSync({
    '[Content_Types].xml': strToU8(contentTypes('application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml', '/word/document.xml')),
    'word/document.xml': strToU8(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>${body}</w:body></w:document>`),
    ...Object.fromEntries(Object.entries(extra).map(([name, xml]) => [name, strToU8(xml)])),
  })
}

/** A Word run with its text. */
export const run = (text: string, attributes = '') => `<w:r><w:rPr><w:b/></w:rPr><w:t${attributes}>${text}</w:t></w:r>`

/** A .xlsx with one shared string and one inline string cell. */
export function xlsx(shared: string, inline: string): Uint8Array {
  return zipSync({
    '[Content_Types].xml': strToU8(contentTypes('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml', '/xl/workbook.xml')),
    'xl/workbook.xml': strToU8('<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheets><sheet name="A" sheetId="1"/></sheets></workbook>'),
    'xl/sharedStrings.xml': strToU8(`<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="1" uniqueCount="1"><si>${shared}</si></sst>`),
    'xl/worksheets/sheet1.xml': strToU8(
      `<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData><row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="inlineStr"><is><t>${inline}</t></is></c></row></sheetData></worksheet>`,
    ),
  })
}

/** A .pptx with one slide whose paragraph holds `runs` (raw `a:r` XML). */
export function pptx(runs: string): Uint8Array {
  return zipSync({
    '[Content_Types].xml': strToU8(contentTypes('application/vnd.openxmlformats-officedocument.presentationml.presentation.main+xml', '/ppt/presentation.xml')),
    'ppt/presentation.xml': strToU8('<p:presentation xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main"/>'),
    'ppt/slides/slide1.xml': strToU8(
      `<p:sld xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"><p:cSld><p:spTree><p:sp><p:txBody><a:p>${runs}</a:p></p:txBody></p:sp></p:spTree></p:cSld></p:sld>`,
    ),
  })
}

/** An .odt whose content.xml body holds `text` (raw XML inside one `text:p`) and whose styles.xml holds `styles`. */
export function odt(text: string, styles = ''): Uint8Array {
  return zipSync({
    mimetype: [strToU8('application/vnd.oasis.opendocument.text'), { level: 0 }],
    'content.xml': strToU8(
      `<office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"><office:body><office:text><text:p>${text}</text:p></office:text></office:body></office:document-content>`,
    ),
    'styles.xml': strToU8(`<office:document-styles xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0">${styles}</office:document-styles>`),
    'META-INF/manifest.xml': strToU8('<manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0"/>'),
  })
}

/** One part of a zip as text. */
export function partOf(zip: Uint8Array, name: string): string {
  const data = unzipSync(zip, { filter: (f) => f.name === name })[name]
  if (data === undefined) throw new Error(`no ${name} in the zip`)
  return strFromU8(data)
}

/** The text of every `w:t` of a Word part, paragraph by paragraph. */
export function wordParagraphs(xml: string): string[] {
  return [...xml.matchAll(/<w:p>([\s\S]*?)<\/w:p>/g)].map((p) => [...(p[1] ?? '').matchAll(/<w:t[^>]*>([^<]*)<\/w:t>/g)].map((t) => t[1]).join(''))
}

const DRAWING_NS =
  'xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:pic="http://schemas.openxmlformats.org/drawingml/2006/picture" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"'

/** A Word run holding an inline picture (DrawingML, as Word writes it) of relationship `rId`, alternative text `descr`. */
export const picture = (rId: string, descr = '') =>
  `<w:r><w:drawing><wp:inline ${DRAWING_NS}><wp:extent cx="914400" cy="914400"/><wp:docPr id="1" name="Image 1" descr="${descr}"/><a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/picture"><pic:pic><pic:nvPicPr><pic:cNvPr id="0" name="image1.jpeg"/><pic:cNvPicPr/></pic:nvPicPr><pic:blipFill><a:blip r:embed="${rId}"/><a:stretch><a:fillRect/></a:stretch></pic:blipFill></pic:pic></a:graphicData></a:graphic></wp:inline></w:drawing></w:r>`

/** The image every picture of the test files starts with (a JPEG's first bytes are enough for the package). */
export const PLACEHOLDER_IMAGE = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3, 4])

/** The relationships part of `word/document.xml`: `rId4` is the placeholder image. */
export const DOCUMENT_RELS =
  '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId4" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/image" Target="media/image1.jpeg"/></Relationships>'

/** A .docx with pictures: `paragraphs` as for docx(), the document's relationships and the placeholder image. */
export function docxWithPictures(paragraphs: readonly string[], extra: Readonly<Record<string, string>> = {}): Uint8Array {
  const base = unzipSync(docx(paragraphs, { 'word/_rels/document.xml.rels': DOCUMENT_RELS, ...extra }))
  return zipSync({ ...base, 'word/media/image1.jpeg': PLACEHOLDER_IMAGE })
}

/** An .odt frame holding the placeholder image, titled `title`. */
export const odfFrame = (title: string) =>
  `<draw:frame xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" xmlns:svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0" xmlns:xlink="http://www.w3.org/1999/xlink" draw:name="Image1" svg:width="3cm" svg:height="3cm"><draw:image xlink:href="Pictures/placeholder.jpg" xlink:type="simple"/><svg:title>${title}</svg:title></draw:frame>`

/** An .odt with a manifest that lists its parts and the placeholder image, as LibreOffice writes one. */
export function odtWithPictures(text: string, styles = ''): Uint8Array {
  const base = unzipSync(odt(text, styles))
  const manifest =
    '<?xml version="1.0" encoding="UTF-8"?>\n<manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.3"><manifest:file-entry manifest:full-path="/" manifest:media-type="application/vnd.oasis.opendocument.text"/><manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/><manifest:file-entry manifest:full-path="Pictures/placeholder.jpg" manifest:media-type="image/jpeg"/></manifest:manifest>'
  return zipSync({
    mimetype: [base.mimetype as Uint8Array, { level: 0 }],
    'content.xml': base['content.xml'] as Uint8Array,
    'styles.xml': base['styles.xml'] as Uint8Array,
    'META-INF/manifest.xml': strToU8(manifest),
    'Pictures/placeholder.jpg': PLACEHOLDER_IMAGE,
  })
}

/** One entry of a zip as bytes (undefined when missing). */
export function entryOf(zip: Uint8Array, name: string): Uint8Array | undefined {
  return unzipSync(zip, { filter: (f) => f.name === name })[name]
}

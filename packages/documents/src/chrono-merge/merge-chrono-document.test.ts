import fc from 'fast-check'
import { strToU8, unzipSync, zipSync } from 'fflate'
import { describe, expect, it } from 'vitest'
import {
  docx,
  odt,
  partOf,
  pptx,
  run,
  wordParagraphs,
  xlsx,
} from '../../../testing/src/fixtures/office/test-office-files.js'
import { sniffMimeType } from '../sniffing/sniff-mime-type.js'
import { mergeChronoDocument, prepareChronoMerge } from './merge-chrono-document.js'
import { CHRONO_PLACEHOLDER as P, replaceChronoPlaceholder, WORDPROCESSING_TEXT } from './replace-chrono-placeholder.js'

const CHRONO = 'MAARCH/2026A/42'
const merged = (format: string, bytes: Uint8Array, chrono = CHRONO) => {
  const merge = prepareChronoMerge(format, bytes)
  if (merge === null) throw new Error('expected a merge')
  return merge.fill(chrono)
}

// The test's own escaping, to check the implementation against.
const oracle = (s: string) =>
  s
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&apos;')

describe('prepareChronoMerge', () => {
  it('builds test files the sniffer recognises as their format', async () => {
    expect(await sniffMimeType(docx([run('x')]))).toBe(
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    )
    expect(await sniffMimeType(xlsx('<t>x</t>', 'x'))).toBe(
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    )
    expect(await sniffMimeType(pptx('<a:r><a:t>x</a:t></a:r>'))).toBe(
      'application/vnd.openxmlformats-officedocument.presentationml.presentation',
    )
    expect(await sniffMimeType(odt('x'))).toBe('application/vnd.oasis.opendocument.text')
  })

  it('fills the docx body, headers and footers, and leaves other parts as they were', () => {
    const header = `<w:hdr xmlns:w="w"><w:p>${run(`Réf. ${P}`)}</w:p></w:hdr>`
    const file = docx([run(`Chrono : ${P}`), run('Autre')], {
      'word/header1.xml': header,
      'word/footer2.xml': header.replaceAll('hdr', 'ftr'),
      'word/comments.xml': `<c>${P}</c>`,
    })
    const out = merged('docx', file)
    expect(wordParagraphs(partOf(out, 'word/document.xml'))).toEqual([`Chrono : ${CHRONO}`, 'Autre'])
    expect(partOf(out, 'word/header1.xml')).toBe(header.replace(P, CHRONO))
    expect(partOf(out, 'word/footer2.xml')).toBe(header.replaceAll('hdr', 'ftr').replace(P, CHRONO))
    expect(partOf(out, 'word/comments.xml')).toBe(`<c>${P}</c>`)
    expect(partOf(out, '[Content_Types].xml')).toBe(partOf(file, '[Content_Types].xml'))
    // Entries keep their order.
    expect(Object.keys(unzipSync(out))).toEqual(Object.keys(unzipSync(file)))
  })

  it('joins a placeholder Word split over runs of one paragraph, and keeps the spaces around it', () => {
    const file = docx([
      run('Courrier [res_letter') + run('box.alt_') + run('identifier] reçu'),
      run('[res_letterbox.') + run('alt_identifier]'),
      `${run('[res_letterbox.')}</w:p><w:p>${run('alt_identifier]')}`,
    ])
    const xml = partOf(merged('docx', file), 'word/document.xml')
    expect(wordParagraphs(xml)).toEqual([`Courrier ${CHRONO} reçu`, CHRONO, '[res_letterbox.', 'alt_identifier]'])
    // The run that lost the start of the text now begins with a space Word would trim without preserve.
    expect(xml).toContain('<w:t xml:space="preserve"> reçu</w:t>')
    // Run properties stay in place.
    expect(xml.match(/<w:rPr><w:b\/><\/w:rPr>/g)).toHaveLength(7)
  })

  it('escapes the chrono for XML', () => {
    const out = merged('docx', docx([run(P)]), 'A&B <C> "D" \'E\'')
    expect(partOf(out, 'word/document.xml')).toContain('<w:t>A&amp;B &lt;C&gt; &quot;D&quot; &apos;E&apos;</w:t>')
  })

  it('fills xlsx shared and inline strings, pptx slides, odt content and styles', () => {
    const sheet = merged('xlsx', xlsx(`<r><t>N° [res_</t></r><r><t>letterbox.alt_identifier]</t></r>`, `Ref ${P}`))
    expect(partOf(sheet, 'xl/sharedStrings.xml')).toContain(`<r><t>N° ${CHRONO}</t></r><r><t></t></r>`)
    expect(partOf(sheet, 'xl/worksheets/sheet1.xml')).toContain(`<is><t>Ref ${CHRONO}</t></is>`)
    const slides = merged('pptx', pptx(`<a:r><a:t>[res_letterbox.alt</a:t></a:r><a:r><a:t>_identifier]</a:t></a:r>`))
    expect(partOf(slides, 'ppt/slides/slide1.xml')).toContain(`<a:r><a:t>${CHRONO}</a:t></a:r><a:r><a:t></a:t></a:r>`)
    const text = merged('odt', odt(`Chrono ${P}`, `<style>${P}</style>`))
    expect(partOf(text, 'content.xml')).toContain(`<text:p>Chrono ${CHRONO}</text:p>`)
    expect(partOf(text, 'styles.xml')).toContain(`<style>${CHRONO}</style>`)
    // ODF readers need `mimetype` first and stored.
    const names: [string, number][] = []
    unzipSync(text, {
      filter: (f) => {
        names.push([f.name, f.compression])
        return false
      },
    })
    expect(names[0]).toEqual(['mimetype', 0])
    for (const format of ['ods', 'odp', 'odf'])
      expect(partOf(merged(format, odt(P)), 'content.xml')).toContain(`<text:p>${CHRONO}</text:p>`)
  })

  it('empties the field for a record without a chrono', () => {
    expect(wordParagraphs(partOf(merged('docx', docx([run(`N° ${P}.`)]), ''), 'word/document.xml'))).toEqual(['N° .'])
  })

  it('leaves alone files without the placeholder, other formats, and what is not a readable zip', () => {
    expect(prepareChronoMerge('docx', docx([run('Rien à remplacer [res_letterbox.subject]')]))).toBeNull()
    expect(prepareChronoMerge('pdf', docx([run(P)]))).toBeNull()
    expect(prepareChronoMerge('doc', docx([run(P)]))).toBeNull()
    expect(prepareChronoMerge('docx', strToU8(`PK not a zip ${P}`))).toBeNull()
    // The placeholder outside the parts the merge reads.
    expect(prepareChronoMerge('docx', zipSync({ 'word/media/note.xml': strToU8(P) }))).toBeNull()
    // A part that is not UTF-8.
    expect(prepareChronoMerge('docx', zipSync({ 'word/document.xml': new Uint8Array([0xff, 0xfe, 0x00]) }))).toBeNull()
  })

  it('property: any chrono ends up escaped in place of the placeholder, and nothing else moves', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), fc.string({ unit: 'grapheme-ascii' }), (chrono, before) => {
        fc.pre(!chrono.includes(P) && /^[\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]*$/u.test(chrono))
        const text = oracle(before)
        const xml = partOf(
          merged('docx', docx([run(`${text}${P}`), run('[res_letterbox.') + run('alt_identifier]')]), chrono),
          'word/document.xml',
        )
        expect(xml).not.toContain(P)
        const escaped = oracle(chrono)
        expect(xml).toContain(`${text}${escaped}</w:t>`)
        // Well-formed as far as text goes: every & starts an entity, no stray < or > in character data.
        expect(xml.replace(/&(?:amp|lt|gt|quot|apos);/g, '')).not.toMatch(/&/)
        for (const t of xml.matchAll(/<w:t[^>]*>([^<]*)<\/w:t>/g)) expect(t[1]).not.toMatch(/[<>]/)
        expect(xml.split('<').length).toBe(
          partOf(
            docx([run(`${text}${P}`), run('[res_letterbox.') + run('alt_identifier]')]),
            'word/document.xml',
          ).split('<').length,
        )
      }),
    )
  })

  it('property: the XML text merge equals a plain replacement for a whole placeholder', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), (chrono) => {
        fc.pre(!chrono.includes(P) && /^[\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]*$/u.test(chrono))
        const xml = `<w:p><w:r><w:t>a${P}b</w:t></w:r></w:p><x y="${P}"/>`
        expect(replaceChronoPlaceholder(xml, chrono, WORDPROCESSING_TEXT)).toBe(xml.split(P).join(oracle(chrono)))
      }),
    )
  })

  it('property: a zip without the placeholder is stored with the very same bytes', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: 'grapheme-ascii' }), { maxLength: 5 }), (texts) => {
        fc.pre(!texts.join('\n').includes(P))
        const file = docx(texts.map((t) => run(oracle(t))))
        const copy = file.slice()
        expect(prepareChronoMerge('docx', file)).toBeNull()
        const out = mergeChronoDocument('docx', file, 'MAARCH/2026A/1')
        expect(out).toBe(file)
        expect(out).toEqual(copy)
      }),
    )
  })

  it('does not replace a chrono that reads like the placeholder a second time', () => {
    const odd = `x${P}y`
    expect(
      wordParagraphs(
        partOf(
          merged('docx', docx([run(P), run('[res_letterbox.') + run('alt_identifier]')]), odd),
          'word/document.xml',
        ),
      ),
    ).toEqual([odd, odd])
  })
})

import fc from 'fast-check'
import { type DefaultTreeAdapterMap, parseFragment } from 'parse5'
import { describe, expect, it } from 'vitest'
import { escapeHtml, inertHtmlText, safeHtml } from './safe-html.js'

/** Pieces an attacker would assemble a message from. */
const PIECES = [
  '<script>',
  '</script>',
  '<img src=x onerror=alert(1)>',
  '<a href="javascript:alert(1)">',
  '<a href="https://example.org/" target="_blank" onclick="x()">',
  '<svg onload=alert(1)>',
  '<iframe src="//evil">',
  '<span style="color:red">',
  '<span style="background:url(javascript:x)">',
  '<p style="x:expression(alert(1))">',
  '</span>',
  '<strong>',
  '</strong>',
  '&lt;script&gt;',
  '&#60;img src=x onerror=y&#62;',
  '<',
  '>',
  '"',
  "'",
  '=',
  ' onmouseover=',
  '<style>',
  '</style>',
  '<!--',
  '-->',
  'text',
]

const message = fc
  .array(fc.oneof(fc.constantFrom(...PIECES), fc.string({ maxLength: 8 })), { maxLength: 30 })
  .map((parts) => parts.join(''))

describe('safeHtml', () => {
  it('keeps formatting, links and colours as written', () => {
    const kept =
      '<h3><span style="color:#24b0ed"><strong>Découvrez</strong></span> <a title="le guide" href="https://docs.example.org/">le guide</a></h3>'
    expect(safeHtml(kept)).toBe(kept)
    expect(safeHtml('<a href="mailto:a@b.c" target="_blank">x</a>')).toBe(
      '<a href="mailto:a@b.c" target="_blank" rel="noopener noreferrer">x</a>',
    )
  })

  it('drops scripts, handlers, frames and unsafe URLs or styles; escapes the rest', () => {
    expect(safeHtml('a<script>alert(1)</script>b<style>*{}</style>c')).toBe('abc')
    expect(safeHtml('<img src=x onerror=alert(1)><iframe src="//x"></iframe>')).toBe('')
    expect(safeHtml('<a href="javascript:alert(1)" onclick="x()">y</a>')).toBe('<a>y</a>')
    expect(safeHtml('<span style="background:url(//x)">y</span>')).toBe('<span>y</span>')
    expect(safeHtml('1 < 2 & "3" > 0')).toBe('1 &#60; 2 &#38; &#34;3&#34; &#62; 0')
    expect(safeHtml('&lt;script&gt;')).toBe('&#60;script&#62;')
  })

  it('never lets through an element, attribute or URL that runs script, whatever the message', () => {
    fc.assert(
      fc.property(message, (html) => {
        const safe = safeHtml(html)
        // Every tag left is one of the kept elements, with only the kept attributes.
        for (const tag of safe.match(/<[^>]*>/g) ?? []) {
          expect(tag).toMatch(
            /^<\/?(a|b|br|div|em|h[1-6]|hr|i|li|ol|p|small|span|strong|u|ul)((\s(href|title|target|style|rel)="[^"<>]*")*)>$/,
          )
          expect(tag).not.toMatch(/javascript:|url\(|expression|\son[a-z]+=/i)
        }
        // No markup outside the tags: a lone < or > is always escaped.
        expect(safe.replace(/<[^>]*>/g, '')).not.toMatch(/[<>]/)
      }),
      { numRuns: 500 },
    )
  })

  it('is idempotent: a sanitised message comes back the same', () => {
    fc.assert(
      fc.property(message, (html) => {
        const once = safeHtml(html)
        expect(safeHtml(once)).toBe(once)
      }),
      { numRuns: 300 },
    )
  })

  it('escapes text for HTML', () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe('&#60;a href=&#34;x&#34;&#62;&#39;&#38;&#39;&#60;/a&#62;')
  })
})

type HtmlNode = DefaultTreeAdapterMap['childNode']

/** What a page shows of `html` set as an element's innerHTML: its text, or null when it holds any element or comment. */
function htmlText(html: string): string | null {
  let text = ''
  for (const node of parseFragment(html).childNodes as HtmlNode[]) {
    if (node.nodeName !== '#text') return null
    text += (node as DefaultTreeAdapterMap['textNode']).value
  }
  return text
}

/** A page reads a carriage return as a line feed (HTML's input stream): the same white space as text. */
const asPageReads = (text: string) => text.replace(/\r\n?/g, '\n')

/** Pieces of markup, references and the word joiner itself, in any order, among any other text but NUL. */
const callerText = fc
  .array(
    fc.oneof(
      fc.constantFrom(
        ...PIECES,
        '&amp;',
        '&#60;',
        '&#x3c;',
        '&lt',
        '</',
        '<!',
        '<?',
        '<\u2060',
        '&\u2060',
        '\u2060',
        '\r\n',
        '\r',
        ';',
      ),
      fc.string({ unit: 'binary', maxLength: 6 }).map((s) => s.replaceAll('\0', '')),
    ),
    { maxLength: 24 },
  )
  .map((parts) => parts.join(''))

describe('inertHtmlText', () => {
  it('keeps text without markup as it is: apostrophes, quotes, a lone & or <', () => {
    for (const text of ["Demande de subvention du banc d'essai", 'Dupont & Fils', '"Le Phare"', '1 < 2 > 0', 'a&1 <3'])
      expect(inertHtmlText(text)).toBe(text)
  })

  it('puts a word joiner after each < or & that would start markup', () => {
    expect(inertHtmlText('<img src=x onerror=alert(1)>')).toBe('<\u2060img src=x onerror=alert(1)>')
    expect(inertHtmlText('</script>')).toBe('<\u2060/script>')
    expect(inertHtmlText('<!-- x --><?php')).toBe('<\u2060!-- x --><\u2060?php')
    expect(inertHtmlText('&amp; &#60; &lt')).toBe('&\u2060amp; &\u2060#60; &\u2060lt')
    expect(inertHtmlText('<\u2060b>')).toBe('<\u2060\u2060b>')
  })

  it('reads the same as HTML and as text, never as markup, whatever a caller wrote', () => {
    // What the property rules out: the caller's own text, read as HTML, is markup or another text.
    expect(htmlText('<b>x</b>')).toBeNull()
    expect(htmlText('&amp;')).toBe('&')
    fc.assert(
      fc.property(callerText, (text) => {
        const inert = inertHtmlText(text)
        expect(htmlText(inert)).toBe(asPageReads(inert))
      }),
      { numRuns: 1000 },
    )
  })

  it('adds word joiners only: one taken out after each < and & gives back what the caller wrote', () => {
    fc.assert(
      fc.property(callerText, (text) => {
        expect(inertHtmlText(text).replace(/([<&])\u2060/g, '$1')).toBe(text)
      }),
      { numRuns: 1000 },
    )
  })

  it('shows, read as HTML, exactly what the caller wrote once the joiners are taken out', () => {
    for (const text of PIECES)
      expect(htmlText(inertHtmlText(text))?.replace(/([<&])\u2060/g, '$1')).toBe(asPageReads(text))
  })
})

import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { escapeHtml, safeHtml } from './safe-html.js'

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

/**
 * The HTML 20.10's web client renders as markup (`[innerHTML]`). Two kinds of text reach it:
 * - the sign-in and home pages' messages, written by an administrator (the `loginpage_message` and
 *   `homepage_message` parameters) and meant as markup: {@link safeHtml} keeps an allow-list of formatting
 *   elements, with few attributes, and escapes every other character of markup. The client hands both to the page
 *   without Angular's sanitiser (its `safeHtml` pipe, `bypassSecurityTrustHtml`): this filter is the only one.
 * - text that callers write (a letter's subject, a contact's name), which the client shows as markup in some
 *   places and as text in others, from the same field of the same answer: {@link inertHtmlText} makes it read the
 *   same both ways.
 */

/** Elements kept, without attributes unless listed in {@link KEPT_ATTRIBUTES}. */
const KEPT_ELEMENTS = new Set([
  'a',
  'b',
  'br',
  'div',
  'em',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'hr',
  'i',
  'li',
  'ol',
  'p',
  'small',
  'span',
  'strong',
  'u',
  'ul',
])

/** Elements whose whole content goes with them (their text is code or styling, not a message). */
const DROPPED_WITH_CONTENT = new Set(['script', 'style', 'template', 'noscript', 'textarea', 'title', 'xmp'])

const KEPT_ATTRIBUTES: Readonly<Record<string, (value: string) => boolean>> = {
  href: (value) => /^(https?:\/\/|mailto:)[^\s"'<>`]*$/i.test(value),
  title: () => true,
  target: (value) => value === '_blank',
  // Colours, weights and alignment only: no url(), no expression(), nothing that loads or runs.
  style: (value) => /^(\s*[a-z-]+\s*:\s*[#a-z0-9 .,%-]+\s*;?)*\s*$/i.test(value) && !/url|expression|@|\\/i.test(value),
}

const TAG = /<(\/?)([a-zA-Z][a-zA-Z0-9]*)((?:\s+[^\s"'>/=]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'=<>`]+))?)*)\s*(\/?)>/y
const ATTRIBUTE = /([^\s"'>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g

/** Escapes text for an HTML text node or a double-quoted attribute. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)
}

/** A word joiner (U+2060): invisible, and no line break either side; read as HTML it is text. */
const WORD_JOINER = '\u2060'

/**
 * Where markup would start: `<` before a letter, `/`, `!` or `?` opens a tag, an end tag, a comment or a
 * declaration; `&` before a letter or `#` opens a character reference. Before a word joiner too, so that
 * {@link inertHtmlText} stays reversible for text that already holds one there.
 */
const MARKUP_START = /<(?=[A-Za-z/!?\u2060])|&(?=[A-Za-z#\u2060])/g

/**
 * Caller-written text made inert for a page that reads it as HTML, and unchanged for one that reads it as text:
 * a word joiner after each `<` or `&` that would start markup. Read as HTML (`innerHTML`) it is the same text as
 * read as text (`{{ }}`, a `title`), and shows the same: no element, no character reference, never markup.
 * Escaping with character references (`&#60;`) could not serve both: 20.10's client shows a letter's subject as
 * text in a basket's list and as HTML in the side panel of the same list, a contact's name as HTML in a column and
 * as text in its tooltip, so an escaped `&#39;` would show as such wherever the value is text. Text without
 * markup-like `<` or `&` (nearly every subject: apostrophes, quotes and a lone `&` are kept) is unchanged.
 * The SDK takes the joiners out again (`packages/sdk/src/list-text.ts`).
 */
export function inertHtmlText(text: string): string {
  return text.replace(MARKUP_START, (start) => start + WORD_JOINER)
}

/** The allow-listed HTML of a message: kept elements and attributes, everything else as escaped text. */
export function safeHtml(html: string): string {
  let out = ''
  let dropping: string | null = null
  let i = 0
  while (i < html.length) {
    TAG.lastIndex = i
    const tag = html[i] === '<' ? TAG.exec(html) : null
    if (!tag) {
      const next = html.indexOf('<', i + 1)
      const end = next < 0 ? html.length : next
      if (dropping === null) out += escapeHtml(decodeEntities(html.slice(i, end)))
      i = end
      continue
    }
    i = TAG.lastIndex
    const closing = tag[1] === '/'
    const name = tag[2]!.toLowerCase()
    if (dropping !== null) {
      if (closing && name === dropping) dropping = null
      continue
    }
    if (DROPPED_WITH_CONTENT.has(name)) {
      if (!closing && tag[4] !== '/') dropping = name
      continue
    }
    if (!KEPT_ELEMENTS.has(name)) continue
    out += closing ? `</${name}>` : `<${name}${keptAttributes(name, tag[3] ?? '')}>`
  }
  return out
}

function keptAttributes(element: string, source: string): string {
  let kept = ''
  let blank = false
  for (const match of source.matchAll(ATTRIBUTE)) {
    const name = match[1]!.toLowerCase()
    const value = decodeEntities(match[2] ?? match[3] ?? match[4] ?? '')
    const check = KEPT_ATTRIBUTES[name]
    if (!check || ((name === 'href' || name === 'target') && element !== 'a') || !check(value)) continue
    if (name === 'target') blank = true
    kept += ` ${name}="${escapeHtml(value)}"`
  }
  // A page opened in a new tab gets no handle on this one.
  return blank ? `${kept} rel="noopener noreferrer"` : kept
}

const NAMED_ENTITIES: Readonly<Record<string, string>> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: '\u00a0',
}

/** Decodes character references, so that the escaping above writes each character once, in one form. */
function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]{1,6}|#[0-9]{1,7}|[a-z]+);/gi, (whole, ref: string) => {
    if (ref[0] !== '#') return NAMED_ENTITIES[ref.toLowerCase()] ?? whole
    const code =
      ref[1] === 'x' || ref[1] === 'X' ? Number.parseInt(ref.slice(2), 16) : Number.parseInt(ref.slice(1), 10)
    return code > 0 && code <= 0x10ffff && (code < 0xd800 || code > 0xdfff) ? String.fromCodePoint(code) : '\ufffd'
  })
}

/**
 * The HTML 20.10's web client renders as markup (`[innerHTML]`): the sign-in page's message. Its text is written
 * by an administrator (the `loginpage_message` parameter), and shown to every visitor before they sign in, so it
 * must not carry script: only an allow-list of formatting elements is kept, with few attributes, and every
 * other character of markup is escaped. Angular sanitises `[innerHTML]` too; this holds without relying on it.
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

/** The TBS field the reference's MergeController fills with the record's chrono number. */
export const CHRONO_PLACEHOLDER = '[res_letterbox.alt_identifier]'

/**
 * Where the visible text of a part lives: the elements that carry text (`w:t`, `a:t`, `t`) and the
 * elements that end a run of text (a paragraph, a shared string). A placeholder may span several text
 * elements between two boundaries, never a boundary.
 */
export interface TextLayout {
  readonly text: string
  readonly boundaries: readonly string[]
}

/** Word: runs `w:r/w:t` inside paragraphs `w:p`. */
export const WORDPROCESSING_TEXT: TextLayout = { text: 'w:t', boundaries: ['w:p'] }
/** PowerPoint: runs `a:r/a:t` inside paragraphs `a:p`. */
export const DRAWING_TEXT: TextLayout = { text: 'a:t', boundaries: ['a:p'] }
/** Excel: rich-text runs `r/t` inside shared strings `si` and inline strings `is`. */
export const SPREADSHEET_TEXT: TextLayout = { text: 't', boundaries: ['si', 'is'] }

/**
 * The chrono as XML character data that is also safe inside an attribute value (the placeholder may sit
 * in a field's attribute). Characters XML 1.0 forbids are dropped: they could only make the part unreadable.
 */
export function escapeXml(value: string): string {
  return value
    .replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '')
    .replace(/[&<>"']/g, (c) => XML_ESCAPES[c] as string)
}

const XML_ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&apos;',
}

/**
 * `xml` with every placeholder replaced by the escaped `chrono`, or null when it holds none (so that the
 * caller can keep the part, and the file, byte for byte). With a layout, a placeholder split over several
 * text elements of one paragraph is found on their joined text; the first element keeps the chrono and the
 * others lose their share of the placeholder, the markup around them stays. Then any placeholder still
 * written whole (attributes, ODF text, headers of sheets) is replaced in place.
 *
 * Limitation: without a layout (ODF), a placeholder that the editor cut by markup (`text:span`, a change
 * mark) is not recognised; neither is one written with character references.
 */
export function replaceChronoPlaceholder(xml: string, chrono: string, layout: TextLayout | null): string | null {
  const escaped = escapeXml(chrono)
  const whole = (part: string) => part.split(CHRONO_PLACEHOLDER).join(escaped)
  // The whole-placeholder pass runs only between the rewritten text elements, so that a chrono which itself
  // reads like the placeholder is never replaced a second time.
  let result = ''
  let at = 0
  for (const edit of layout === null ? [] : runEdits(xml, chrono, layout)) {
    result += whole(xml.slice(at, edit.start)) + edit.replacement
    at = edit.end
  }
  result += whole(xml.slice(at))
  return result === xml ? null : result
}

interface Edit {
  readonly start: number
  readonly end: number
  readonly replacement: string
}

interface TextNode {
  readonly start: number
  readonly end: number
  readonly attributes: string
  readonly raw: string
  readonly text: string
}

/** The rewritten text elements of the paragraphs whose joined text holds the placeholder, in document order. */
function runEdits(xml: string, chrono: string, layout: TextLayout): Edit[] {
  const text = escapeRegExp(layout.text)
  const boundaries = layout.boundaries.map(escapeRegExp).join('|')
  // A boundary tag (opening, closing or empty), or a text element with plain character data. The lookaheads
  // keep `w:p` from matching `w:pPr` and `t` from matching `tableParts`.
  const tokens = new RegExp(
    `<\\/?(?:${boundaries})(?=[\\s/>])[^>]*>|<${text}(?=[\\s>])([^>]*)>([^<]*)<\\/${text}>`,
    'g',
  )
  const edits: Edit[] = []
  let group: TextNode[] = []
  const flush = () => {
    if (group.length > 0) edits.push(...rewriteGroup(group, chrono, layout.text))
    group = []
  }
  for (const match of xml.matchAll(tokens)) {
    if (match[2] === undefined) {
      flush()
      continue
    }
    const attributes = match[1] ?? ''
    if (attributes.endsWith('/')) continue
    group.push({
      start: match.index,
      end: match.index + match[0].length,
      attributes,
      raw: match[2],
      text: decodeXml(match[2]),
    })
  }
  flush()
  return edits
}

/** Rewrites the text elements of one paragraph whose joined text holds the placeholder; untouched ones keep their bytes. */
function rewriteGroup(group: readonly TextNode[], chrono: string, tag: string): Edit[] {
  const joined = group.map((n) => n.text).join('')
  if (!joined.includes(CHRONO_PLACEHOLDER)) return []
  // Positions of the joined text that belong to a placeholder; the chrono goes where each one starts.
  const removed = new Uint8Array(joined.length)
  const starts = new Set<number>()
  for (
    let at = joined.indexOf(CHRONO_PLACEHOLDER);
    at !== -1;
    at = joined.indexOf(CHRONO_PLACEHOLDER, at + CHRONO_PLACEHOLDER.length)
  ) {
    starts.add(at)
    removed.fill(1, at, at + CHRONO_PLACEHOLDER.length)
  }
  const edits: Edit[] = []
  let offset = 0
  for (const node of group) {
    let text = ''
    let changed = false
    for (let i = 0; i < node.text.length; i++) {
      const position = offset + i
      if (starts.has(position)) text += chrono
      if (removed[position]) changed = true
      else text += node.text[i]
    }
    offset += node.text.length
    if (!changed) continue
    // Word and Excel trim text elements without xml:space="preserve"; removing part of a placeholder can
    // leave a leading or trailing space that must survive.
    const preserve = /\sxml:space=/.test(node.attributes) || !/^\s|\s$/.test(text) ? '' : ' xml:space="preserve"'
    edits.push({
      start: node.start,
      end: node.end,
      replacement: `<${tag}${node.attributes}${preserve}>${escapeXml(text)}</${tag}>`,
    })
  }
  return edits
}

function decodeXml(raw: string): string {
  return raw.replace(
    /&(?:#x([0-9a-fA-F]+)|#([0-9]+)|(lt|gt|amp|quot|apos));/g,
    (whole, hex?: string, decimal?: string, named?: string) => {
      if (named !== undefined)
        return ({ lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" } as Record<string, string>)[named] as string
      const code = hex !== undefined ? Number.parseInt(hex, 16) : Number(decimal)
      return code <= 0x10ffff ? String.fromCodePoint(code) : whole
    },
  )
}

function escapeRegExp(value: string): string {
  return value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}

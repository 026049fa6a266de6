/**
 * The answer of `POST /rest/res/list` (interface.md, Search result) and its JSON text, written so an
 * adapter can stream it: `{"resources":[` + one record at a time + `],"count":N}`, each file's base64 text
 * arriving in chunks while it is read. Pure: no I/O here, the files come from the storage side.
 */

/** A value JSON can carry. */
export type JsonValue = null | boolean | number | string | readonly JsonValue[] | { readonly [key: string]: JsonValue }

/** One record of a search: the requested view columns (plus sve_start_date / fileBase64Content when asked). */
export type SearchRecord = Readonly<Record<string, JsonValue>>

/** A whole search answer, files included: what `list` resolves to. */
export interface SearchResult {
  readonly resources: SearchRecord[]
  /** Number of records returned (not the number matching). */
  readonly count: number
}

/**
 * The base64 text of one original file, read on demand. `open` resolves to null when the record has no
 * file or the file cannot be found; otherwise to the text in chunks (each a whole number of base64 quads,
 * so the chunks concatenate to the encoding of the whole file). Opening reads nothing yet.
 */
export interface SearchFile {
  open(): Promise<AsyncIterable<string> | null>
}

/** One record of a search whose file (when files are wanted) is still unread. */
export interface SearchHit {
  readonly record: SearchRecord
  /** Present only when the caller asked for files. */
  readonly file?: SearchFile
}

/**
 * A search answer ready to stream: the records in order, their files unread. A small answer is an array,
 * already read; a large one (more rows than one batch) arrives batch by batch from a database cursor, so
 * memory stays flat whatever the number of records.
 */
export interface SearchHits {
  readonly hits: readonly SearchHit[] | AsyncIterable<SearchHit>
  readonly withFile: boolean
}

/** The key of the base64 file content in each record of a `withFile` search (reference §3 step 10). */
export const FILE_CONTENT_KEY = 'fileBase64Content'

/**
 * A database value as JSON: timestamps become ISO 8601 UTC strings with milliseconds
 * (`YYYY-MM-DDTHH:mm:ss.sssZ`), integers stay numbers (bigints beyond 2^53 become decimal strings so no
 * digit is lost), JSON columns stay objects, booleans stay booleans.
 */
export function toJsonValue(value: unknown): JsonValue {
  if (value === null || value === undefined) return null
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.toISOString()
  if (typeof value === 'bigint') return Number.isSafeInteger(Number(value)) ? Number(value) : value.toString()
  if (typeof value === 'number') return Number.isFinite(value) ? value : String(value)
  if (typeof value === 'string' || typeof value === 'boolean') return value
  if (Array.isArray(value)) return value.map(toJsonValue)
  if (typeof value === 'object') {
    const out: Record<string, JsonValue> = {}
    for (const [key, item] of Object.entries(value as Record<string, unknown>)) out[key] = toJsonValue(item)
    return out
  }
  return String(value)
}

/**
 * The JSON text of a search answer, in chunks: at most one file's chunk is in memory at a time, whatever
 * the number of records or the size of their files. Concatenated, the chunks are the JSON of
 * `{ resources, count }` with `fileBase64Content` last in each record when files are wanted.
 */
export async function* streamSearchResult(result: SearchHits): AsyncGenerator<string, void, undefined> {
  yield '{"resources":['
  let index = 0
  for await (const hit of result.hits) {
    const json = JSON.stringify(hit.record)
    const separator = index === 0 ? '' : ','
    index++
    if (!result.withFile) {
      yield `${separator}${json}`
      continue
    }
    // A record always holds at least one column, so its JSON is `{…}` and the file goes before the brace.
    yield `${separator}${json.slice(0, -1)},${JSON.stringify(FILE_CONTENT_KEY)}:`
    const chunks = hit.file ? await hit.file.open() : null
    if (chunks === null) {
      yield 'null}'
      continue
    }
    yield '"'
    for await (const chunk of chunks) if (chunk.length > 0) yield chunk
    yield '"}'
  }
  yield `],"count":${index}}`
}

/** Reads a streamed file completely (for `list`, which answers in one piece). */
export async function readSearchFile(file: SearchFile | undefined): Promise<string | null> {
  const chunks = file ? await file.open() : null
  if (chunks === null) return null
  let text = ''
  for await (const chunk of chunks) text += chunk
  return text
}

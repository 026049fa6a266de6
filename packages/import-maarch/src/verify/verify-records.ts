import type { Database } from '@mailroom/storage'
import { type Kysely, sql } from 'kysely'
import { type Related, RelatedRowsInOrder } from '../related-rows.js'
import type { MaarchSource } from '../source.js'
import type { FileComparer } from './file-comparer.js'
import { shown, type Tally } from './tally.js'
import { type Advance, eachConcurrently, type Row, walkRanges } from './walk-ranges.js'

const grouped = (rows: readonly Row[], key: string) => {
  const map = new Map<number, Row[]>()
  for (const row of rows) {
    const id = Number(row[key])
    const list = map.get(id)
    if (list) list.push(row)
    else map.set(id, [row])
  }
  return map
}

const RECORD_COLUMNS = [
  'res_id',
  'subject',
  'status',
  'category_id',
  'alt_identifier',
  'destination',
  'type_id',
  'priority',
  'typist',
  'creation_date',
  'doc_date',
  'linked_resources',
  'external_id',
  'docserver_id',
  'path',
  'filename',
  'fingerprint',
] as const

/** The record's fields the verification compares (the typist the importer replaced is expected as replaced). */
function recordFields(row: Row, replacedTypist: unknown): Row {
  const fields: Row = {}
  for (const column of RECORD_COLUMNS.slice(1, 11)) fields[column] = row[column]
  if (replacedTypist !== undefined) delete fields.typist
  return fields
}

/** The typist the importer replaced by its fallback depositor, as the target's record says. */
function replacedTypist(row: Row | undefined): unknown {
  const external = row?.external_id as { maarchImport?: { typist?: unknown } } | null | undefined
  return external?.maarchImport?.typist
}

/** A history row as both sides print it. */
const historyItem = (h: Row) =>
  [
    shown(h.event_type),
    shown(h.event_date),
    shown(h.user_id),
    shown(h.id_module),
    shown(h.event_id),
    shown(h.info),
  ].join(' | ')

/** A note as both sides print it (its id is new in the target). */
const noteItem = (n: Row) =>
  [
    shown(n.user_id),
    shown(n.creation_date),
    shown(n.note_text),
    JSON.stringify([...(n.entities as string[])].sort()),
  ].join(' | ')

const links = (value: unknown): number[] =>
  (Array.isArray(value) ? value : typeof value === 'string' ? (JSON.parse(value || '[]') as unknown[]) : [])
    .map(Number)
    .sort((a, b) => a - b)

/**
 * The records and what hangs off each (its original and converted versions, notes, links, history rows),
 * a range of record ids at a time.
 */
export async function verifyRecords(
  source: MaarchSource,
  target: Kysely<Database>,
  files: FileComparer,
  tally: Tally,
  advance: Advance,
): Promise<void> {
  // The source's related rows in record order, alongside the ranges (Maarch 20.10 has no index to look them up).
  const walk = await RelatedRowsInOrder.open(source, 0, ['history', 'notes', 'adr'])
  try {
    await walkRanges(
      source,
      target,
      'res_letterbox',
      RECORD_COLUMNS,
      'true',
      (sourceRows, targetRows, end) => verifyRange(sourceRows, targetRows, walk.upTo(end)),
      advance,
    )
  } finally {
    await walk.close()
  }

  async function verifyRange(sourceRows: Row[], targetRows: Row[], sourceRelated: Promise<Related>): Promise<void> {
    const ids = [...new Set([...sourceRows, ...targetRows].map((r) => Number(r.res_id)))].sort((a, b) => a - b)
    const sourceById = new Map(sourceRows.map((r) => [Number(r.res_id), r]))
    const targetById = new Map(targetRows.map((r) => [Number(r.res_id), r]))
    const fromSource = await sourceRelated
    const related = {
      source: { history: fromSource.history, notes: fromSource.notes, versions: fromSource.adr },
      target: await targetRelatedRows(target, ids),
    }
    tally.count('records', sourceRows.length, targetRows.length)
    const fileChecks: (() => Promise<void>)[] = []
    for (const id of ids) {
      const s = sourceById.get(id)
      const t = targetById.get(id)
      const name = String(id)
      if (s === undefined) tally.differ({ kind: 'records', id: name, what: 'in the target only, not in the source' })
      else if (t === undefined) tally.differ({ kind: 'records', id: name, what: 'missing in the target' })
      else tally.compareFields('records', name, recordFields(s, replacedTypist(t)), recordFields(t, replacedTypist(t)))

      const sourceLinks = s ? links(s.linked_resources) : []
      const targetLinks = t ? links(t.linked_resources) : []
      tally.count('links', sourceLinks.length, targetLinks.length)
      if (JSON.stringify(sourceLinks) !== JSON.stringify(targetLinks))
        tally.differ({
          kind: 'links',
          id: `record ${id}`,
          what: 'linked records differ',
          source: JSON.stringify(sourceLinks),
          target: JSON.stringify(targetLinks),
        })
      const of = (side: Map<number, Row[]>) => side.get(id) ?? []
      tally.compareMultisets(
        'notes',
        `record ${id}`,
        of(related.source.notes).map(noteItem),
        of(related.target.notes).map(noteItem),
      )
      tally.compareMultisets(
        'history',
        `record ${id}`,
        of(related.source.history).map(historyItem),
        of(related.target.history).map(historyItem),
      )

      fileChecks.push(() => files.compare(`record ${id} original`, s ?? null, t ?? null))
      const versionKey = (v: Row) => `${String(v.type)} version ${String(v.version)}`
      const sourceVersions = new Map(of(related.source.versions).map((v) => [versionKey(v), v]))
      const targetVersions = new Map(of(related.target.versions).map((v) => [versionKey(v), v]))
      for (const key of new Set([...sourceVersions.keys(), ...targetVersions.keys()]))
        fileChecks.push(() =>
          files.compare(`record ${id} ${key}`, sourceVersions.get(key) ?? null, targetVersions.get(key) ?? null),
        )
    }
    await eachConcurrently(fileChecks, (check) => check())
  }
}

/** The notes, history rows and converted versions of a range of records in the target, by record. */
async function targetRelatedRows(target: Kysely<Database>, ids: readonly number[]) {
  const texts = ids.map(String)
  if (ids.length === 0) return empty()
  // The importer's own rows (IMPORT, module import) say the record was imported: they are not the source's.
  const targetHistory = await target
    .selectFrom('history')
    .selectAll()
    .where('table_name', '=', 'res_letterbox')
    .where('record_id', 'in', texts)
    .where((eb) => eb.not(eb.and([eb('event_type', '=', 'IMPORT'), eb('id_module', '=', 'import')])))
    .execute()
  const targetNotes = await target
    .selectFrom('notes as n')
    .select([
      'n.identifier',
      'n.user_id',
      'n.creation_date',
      'n.note_text',
      sql<string[]>`array(select ne.item_id from note_entities ne where ne.note_id = n.id)`.as('entities'),
    ])
    .where('n.identifier', 'in', ids)
    .execute()
  const targetVersions = await target
    .selectFrom('adr_letterbox')
    .select(['res_id', 'type', 'version', 'docserver_id', 'path', 'filename', 'fingerprint'])
    .where('res_id', 'in', ids)
    .execute()
  return {
    history: grouped(targetHistory, 'record_id'),
    notes: grouped(targetNotes, 'identifier'),
    versions: grouped(targetVersions, 'res_id'),
  }
}

function empty() {
  return { history: new Map<number, Row[]>(), notes: new Map<number, Row[]>(), versions: new Map<number, Row[]>() }
}

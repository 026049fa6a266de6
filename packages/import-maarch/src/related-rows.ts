import type { MaarchRow } from './maarch-record-rows.js'
import type { MaarchSource, SourceCursor } from './source.js'

/** Rows of other tables for a page of records, by res_id. */
export interface Related {
  readonly adr: Map<number, MaarchRow[]>
  readonly listinstance: Map<number, MaarchRow[]>
  readonly contacts: Map<number, MaarchRow[]>
  readonly tags: Map<number, MaarchRow[]>
  readonly folders: Map<number, MaarchRow[]>
  readonly history: Map<number, MaarchRow[]>
  readonly notes: Map<number, MaarchRow[]>
  readonly attachments: Map<number, MaarchRow[]>
}

export type RelatedTable = keyof Related

/** How one table's rows hang off records. */
interface RelatedQuery {
  /** The rows, up to a first condition (`where …`) that the record's condition extends. */
  readonly rows: string
  /** The same rows for a walk through the whole table, where it differs (a join instead of a subquery per row). */
  readonly walk?: string
  /** The column naming the record, in SQL and in the rows read. */
  readonly column: string
  readonly key: string
  /** Whether the column is text (history's record_id): compared as text, walked by its numeric value. */
  readonly text?: boolean
  /** A record's rows in this order. */
  readonly order: string
}

const NOTE_ENTITIES = 'array(select ne.item_id from note_entities ne where ne.note_id = n.id order by ne.id)'

const QUERIES: Record<RelatedTable, RelatedQuery> = {
  adr: {
    rows: `select * from adr_letterbox where type <> 'TNL'`,
    column: 'res_id',
    key: 'res_id',
    order: 'version, type',
  },
  listinstance: {
    rows: 'select * from listinstance where true',
    column: 'res_id',
    key: 'res_id',
    order: 'listinstance_id',
  },
  contacts: { rows: 'select * from resource_contacts where true', column: 'res_id', key: 'res_id', order: 'id' },
  tags: {
    rows: 'select res_id, tag_id from resources_tags where true',
    column: 'res_id',
    key: 'res_id',
    order: 'tag_id',
  },
  folders: {
    rows: 'select res_id, folder_id from resources_folders where true',
    column: 'res_id',
    key: 'res_id',
    order: 'folder_id',
  },
  history: {
    rows: `select * from history where table_name in ('res_letterbox', 'res_view_letterbox')`,
    column: 'record_id',
    key: 'record_id',
    text: true,
    order: 'id',
  },
  notes: {
    rows: `select n.*, ${NOTE_ENTITIES} as entities from notes n where true`,
    // Maarch 20.10 has no index on note_entities.note_id: one aggregate for the walk, not a scan per note.
    walk: `select n.*, coalesce(e.entities, '{}') as entities from notes n
      left join (select note_id, array_agg(item_id order by id) as entities from note_entities group by note_id) e
        on e.note_id = n.id
      where true`,
    column: 'n.identifier',
    key: 'identifier',
    order: 'n.id',
  },
  // Deleted attachments stay behind, as deleted records' files do not come.
  attachments: {
    rows: `select * from res_attachments where coalesce(status, '') <> 'DEL'`,
    column: 'res_id_master',
    key: 'res_id_master',
    order: 'res_id',
  },
}

export const RELATED_TABLES = Object.keys(QUERIES) as RelatedTable[]

function groupInto(grouped: Map<number, MaarchRow[]>, rows: readonly MaarchRow[], key: string): void {
  for (const row of rows) {
    const id = Number(row[key])
    const list = grouped.get(id)
    if (list) list.push(row)
    else grouped.set(id, [row])
  }
}

function emptyRelated(): Related {
  return Object.fromEntries(RELATED_TABLES.map((table) => [table, new Map()])) as unknown as Related
}

/** The rows that hang off a few records (a delta's changed records), one query per table, grouped by record. */
export async function relatedOf(source: MaarchSource, resIds: readonly number[]): Promise<Related> {
  const related = emptyRelated()
  if (resIds.length === 0) return related
  for (const table of RELATED_TABLES) {
    const q = QUERIES[table]
    const ids = q.text ? resIds.map(String) : [...resIds]
    groupInto(
      related[table],
      await source.rows(`${q.rows} and ${q.column} = any($1) order by ${q.order}`, [ids]),
      q.key,
    )
  }
  return related
}

/** Rows fetched per table at a time. */
const FETCH_ROWS = 2000

/** One table's cursor, the rows fetched beyond the last range, and whether the table is read to its end. */
interface TableWalk {
  readonly cursor: SourceCursor
  readonly ahead: MaarchRow[]
  done: boolean
}

/**
 * The rows that hang off every record, read in record order once, a range of records at a time. Maarch 20.10
 * ships no index on these tables' record columns (listinstance.res_id, history.record_id…): a query per page
 * of records would read each table whole for every page, an import of a million records thousands of times
 * over. One cursor per table, sorted once by the database, is read alongside the records instead.
 */
export class RelatedRowsInOrder {
  readonly #cursors: Map<RelatedTable, TableWalk>

  private constructor(cursors: Map<RelatedTable, TableWalk>) {
    this.#cursors = cursors
  }

  /** Opens the walk after record `afterResId`, over `tables` (all by default). */
  static async open(
    source: MaarchSource,
    afterResId: number,
    tables: readonly RelatedTable[] = RELATED_TABLES,
  ): Promise<RelatedRowsInOrder> {
    const cursors = new Map<RelatedTable, TableWalk>()
    for (const table of tables) {
      const q = QUERIES[table]
      // history's record_id is text: walked by its value as a number, rows naming no number left out.
      const id = q.text ? `(case when ${q.column} ~ '^[0-9]{1,18}$' then ${q.column}::bigint end)` : q.column
      const cursor = await source.cursor(`${q.walk ?? q.rows} and ${id} > $1 order by ${id}, ${q.order}`, [afterResId])
      cursors.set(table, { cursor, ahead: [], done: false })
    }
    return new RelatedRowsInOrder(cursors)
  }

  /** The rows of the records after the previous range up to `lastResId` (ranges asked in increasing order). */
  async upTo(lastResId: number): Promise<Related> {
    const related = emptyRelated()
    for (const [table, state] of this.#cursors) {
      const key = QUERIES[table].key
      const beyond = () => state.ahead.length > 0 && Number(state.ahead.at(-1)?.[key]) > lastResId
      while (!state.done && !beyond()) {
        const rows = await state.cursor.fetch(FETCH_ROWS)
        if (rows.length < FETCH_ROWS) state.done = true
        state.ahead.push(...rows)
      }
      const end = state.ahead.findIndex((row) => Number(row[key]) > lastResId)
      groupInto(related[table], state.ahead.splice(0, end === -1 ? state.ahead.length : end), key)
    }
    return related
  }

  async close(): Promise<void> {
    for (const { cursor } of this.#cursors.values()) await cursor.close().catch(() => {})
  }
}

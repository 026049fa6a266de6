import type {
  FullTextCandidate,
  FullTextFileRef,
  FullTextIndex,
  FullTextIndexedText,
  FullTextIndexQuery,
} from '@mailroom/core'
import { type Kysely, sql } from 'kysely'
import type { Database } from '../database/schema.js'
import { fullTextConfigOf, fullTextExcerpt, fullTextQuery } from '../search/compile-clause.js'

/**
 * The default full-text index: PostgreSQL's (or PGlite's) own, the tsvector `fulltext_texts.document` under a
 * GIN index beside the kept text (migration 0016). The extraction queue writes it in the transaction that
 * completes a job, so `put` and `remove` are for callers outside the queue; like the queue's, their writes
 * carry over to the record's own words (`res_letterbox.fulltext_document`, kept by the triggers of migration
 * 0019), over which searches compile their matching into their own SQL (compile-clause.ts) rather than calling
 * `search`, which answers the port for everyone else.
 */
export class DatabaseFullTextIndex implements FullTextIndex {
  readonly #db: Kysely<Database>

  constructor(db: Kysely<Database>) {
    this.#db = db
  }

  async put(text: FullTextIndexedText): Promise<void> {
    const config = fullTextConfigOf(text.language)
    await sql`insert into fulltext_texts (file_kind, file_id, res_id, method, language, content, document)
      values (${text.fileKind}, ${text.fileId}, ${text.resId}, 'plain', ${text.language}, ${text.text}::text,
        to_tsvector(${config}::regconfig, ${text.text}::text))
      on conflict (file_kind, file_id) do update set res_id = excluded.res_id, language = excluded.language,
        content = excluded.content, document = excluded.document, extracted_at = now()`.execute(this.#db)
  }

  async remove(file: FullTextFileRef): Promise<void> {
    await this.#db
      .deleteFrom('fulltext_texts')
      .where('file_kind', '=', file.fileKind)
      .where('file_id', '=', file.fileId)
      .execute()
  }

  async search(query: FullTextIndexQuery): Promise<readonly FullTextCandidate[]> {
    const config = fullTextConfigOf(query.language)
    const words = fullTextQuery(query.words, config)
    const { rows } = await sql<{
      file_kind: 'resource' | 'attachment'
      file_id: string | number
      res_id: string | number
      rank: number
      excerpt: string
    }>`select best.file_kind, best.file_id, best.res_id, best.rank,
        ${fullTextExcerpt(config, words)} as excerpt
      from (select file_kind, file_id, res_id, ts_rank_cd(document, ${words}) as rank from fulltext_texts
        where document @@ ${words} order by rank desc, res_id, file_kind, file_id limit ${query.limit}) as best
      join fulltext_texts as ft on ft.file_kind = best.file_kind and ft.file_id = best.file_id
      order by best.rank desc, best.res_id, best.file_kind, best.file_id`.execute(this.#db)
    return rows.map((row) => ({
      fileKind: row.file_kind,
      fileId: Number(row.file_id),
      resId: Number(row.res_id),
      rank: Number(row.rank),
      excerpt: row.excerpt,
    }))
  }
}

import type { Database } from '@mailroom/storage'
import type { Kysely } from 'kysely'
import type { MaarchSource } from '../source.js'
import type { FileComparer } from './file-comparer.js'
import type { Tally } from './tally.js'
import { type Advance, eachConcurrently, type Row, walkRanges } from './walk-ranges.js'

const ATTACHMENT_COLUMNS = [
  'res_id',
  'res_id_master',
  'title',
  'identifier',
  'status',
  'attachment_type',
  'relation',
  'format',
  'docserver_id',
  'path',
  'filename',
  'fingerprint',
] as const

/** The attachments Maarch had (deleted ones stay behind) and their files, a range of ids at a time. */
export async function verifyAttachments(
  source: MaarchSource,
  target: Kysely<Database>,
  files: FileComparer,
  tally: Tally,
  advance: Advance,
): Promise<void> {
  await walkRanges(
    source,
    target,
    'res_attachments',
    ATTACHMENT_COLUMNS,
    `coalesce(status, '') <> 'DEL'`,
    async (sourceRows, targetRows) => {
      const fields = (a: Row) => ({
        master: a.res_id_master,
        title: a.title,
        identifier: a.identifier,
        status: a.status,
        type: a.attachment_type,
        relation: a.relation,
        format: typeof a.format === 'string' ? a.format.toLowerCase() : a.format,
      })
      const byId = (rows: Row[]) => new Map(rows.map((a) => [String(a.res_id), a]))
      const sourceById = byId(sourceRows)
      const targetById = byId(targetRows)
      tally.compareKeyed(
        'attachments',
        new Map([...sourceById].map(([id, a]) => [id, fields(a)])),
        new Map([...targetById].map(([id, a]) => [id, fields(a)])),
      )
      const ids = [...new Set([...sourceById.keys(), ...targetById.keys()])]
      await eachConcurrently(ids, (id) =>
        files.compare(`attachment ${id}`, sourceById.get(id) ?? null, targetById.get(id) ?? null),
      )
    },
    advance,
  )
}

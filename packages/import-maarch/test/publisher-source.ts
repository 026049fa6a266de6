import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { createSourceDatabase, type SourceDatabase } from './source-database.js'

/** A fresh PostgreSQL database loaded with the publisher's three SQL files, then `extraSql`. */
export function createPublisherSource(fixtures: string, extraSql = ''): Promise<SourceDatabase> {
  return createSourceDatabase(async (client) => {
    for (const file of ['structure.sql', 'data_fr.sql', 'sample.sql'])
      await client.query(await readFile(join(fixtures, 'sql', file), 'utf8'))
    if (extraSql !== '') await client.query(extraSql)
  })
}

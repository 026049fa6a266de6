import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import type pg from 'pg'
import { type GeneratedInstallation, generateInstallation } from './generated-installation.js'
import { MAARCH_SCHEMA_SQL } from './maarch-schema.js'
import { createSourceDatabase } from './source-database.js'

/** The generated installation loaded: its database, its docservers folder, what it holds. */
export interface GeneratedSource {
  readonly url: string
  /** The folder standing for Maarch's /opt/maarch/docservers/ (pass as `docservers.root`). */
  readonly docservers: string
  readonly installation: GeneratedInstallation
  drop(): Promise<void>
}

/** node-postgres writes a JS array as a PostgreSQL array: JSON columns get their text. */
const parameter = (value: unknown) =>
  value !== null && typeof value === 'object' && !(value instanceof Date) ? JSON.stringify(value) : value

async function insertRows(client: pg.Client, table: string, rows: readonly Record<string, unknown>[]): Promise<void> {
  if (rows.length === 0) return
  const columns = [...new Set(rows.flatMap((row) => Object.keys(row)))]
  // A statement takes at most 65,535 parameters: a large installation goes in several.
  const perStatement = Math.floor(65_535 / columns.length)
  for (let start = 0; start < rows.length; start += perStatement) {
    const values: unknown[] = []
    const tuples = rows
      .slice(start, start + perStatement)
      .map((row) => `(${columns.map((column) => `$${values.push(parameter(row[column] ?? null))}`).join(', ')})`)
    await client.query(
      `insert into ${table} (${columns.map((c) => `"${c}"`).join(', ')}) values ${tuples.join(', ')}`,
      values,
    )
  }
}

/**
 * A fresh PostgreSQL database holding a generated Maarch 20.10 installation (our own schema, see
 * maarch-schema.ts), its files in a temporary docservers folder; `alter` is SQL run after loading, to
 * damage or change it for a test. The same options give the same rows and bytes.
 */
export async function createGeneratedSource(
  options: { seed?: number; records?: number; alter?: string } = {},
): Promise<GeneratedSource> {
  const installation = generateInstallation(options)
  const docservers = await mkdtemp(join(tmpdir(), 'mailroom-maarch-docservers-'))
  try {
    for (const [path, bytes] of installation.files) {
      await mkdir(dirname(join(docservers, path)), { recursive: true })
      await writeFile(join(docservers, path), bytes)
    }
    const database = await createSourceDatabase(async (client) => {
      await client.query(MAARCH_SCHEMA_SQL)
      for (const [table, rows] of Object.entries(installation.tables)) await insertRows(client, table, rows)
      // Rows were given their ids: serials continue after them, as in a Maarch that made them.
      const serials = await client.query<{ table_name: string; column_name: string }>(
        `select table_name, column_name from information_schema.columns where table_schema = 'public' and column_default like 'nextval(%'`,
      )
      for (const { table_name, column_name } of serials.rows)
        await client.query(
          `select setval(pg_get_serial_sequence('${table_name}', '${column_name}'), greatest((select max("${column_name}") from "${table_name}"), 1))`,
        )
      if (options.alter) await client.query(options.alter)
    })
    return {
      url: database.url,
      docservers,
      installation,
      drop: async () => {
        await database.drop()
        await rm(docservers, { recursive: true, force: true })
      },
    }
  } catch (error) {
    await rm(docservers, { recursive: true, force: true })
    throw error
  }
}

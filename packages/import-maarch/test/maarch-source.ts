import { execFileSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { resolve } from 'node:path'
import { postgresAdminUrl } from '@mailroom/testing'
import type { KyselyPlugin, QueryId } from 'kysely'
import {
  importMaarch,
  type MaarchImportOptions,
  type MaarchImportReport,
  type MaarchImportTarget,
  ReportCollector,
} from '../src/index.js'

/** The publisher's Maarch 20.10 installation kept outside the project (MAILROOM_MAARCH_FIXTURES overrides). */
export const MAARCH_FIXTURES =
  process.env.MAILROOM_MAARCH_FIXTURES ?? resolve(import.meta.dirname, '../../../../shared/fixtures/maarch-20.10')

/** A fresh PostgreSQL database loaded with the Maarch fixtures' three SQL files, and how to drop it. */
export function createMaarchSource(extraSql = ''): { url: string; drop(): void } {
  const admin = new URL(postgresAdminUrl())
  const name = `maarch_src_${process.pid}_${randomBytes(4).toString('hex')}`
  const psql = (db: string, args: string[]) =>
    execFileSync(
      'psql',
      [
        '-h',
        admin.hostname,
        '-p',
        admin.port || '5432',
        '-U',
        admin.username || 'postgres',
        '-d',
        db,
        '-q',
        '-v',
        'ON_ERROR_STOP=1',
        ...args,
      ],
      {
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    )
  psql(admin.pathname.slice(1) || 'postgres', ['-c', `create database ${name}`])
  for (const file of ['structure.sql', 'data_fr.sql', 'sample.sql'])
    psql(name, ['-f', `${MAARCH_FIXTURES}/sql/${file}`])
  if (extraSql !== '') psql(name, ['-c', extraSql])
  const url = new URL(admin)
  url.pathname = `/${name}`
  return {
    url: url.toString(),
    drop: () => psql(admin.pathname.slice(1) || 'postgres', ['-c', `drop database if exists ${name} with (force)`]),
  }
}

/** An import whose whole report is kept in memory, to look at every record's entry. */
export async function importCollecting(
  target: MaarchImportTarget,
  options: MaarchImportOptions,
): Promise<MaarchImportReport> {
  const collector = new ReportCollector()
  return collector.report(await importMaarch(target, { ...options, report: collector }))
}

/** A plugin whose `failAt`-th history insert fails after PostgreSQL ran it: an import stopped mid-record. */
export function failingHistoryInsert(failAt: number, message: string): KyselyPlugin {
  const historyInserts = new WeakSet<QueryId>()
  let seen = 0
  return {
    transformQuery({ node, queryId }) {
      if (node.kind === 'InsertQueryNode' && node.into?.table.identifier.name === 'history') historyInserts.add(queryId)
      return node
    },
    async transformResult({ queryId, result }) {
      if (historyInserts.has(queryId) && ++seen === failAt) throw new Error(message)
      return result
    },
  }
}

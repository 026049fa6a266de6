import type { KyselyPlugin, QueryId } from 'kysely'
import {
  importMaarch,
  type MaarchImportOptions,
  type MaarchImportReport,
  type MaarchImportTarget,
  ReportCollector,
} from '../src/index.js'

/** An import whose whole report is kept in memory, to look at every record's entry. */
export async function importCollecting(
  target: MaarchImportTarget,
  options: MaarchImportOptions,
): Promise<MaarchImportReport> {
  const collector = new ReportCollector()
  return collector.report(await importMaarch(target, { ...options, report: collector }))
}

/** A plugin whose `failAt`-th history insert (one per batch) fails after PostgreSQL ran it: an import stopped mid-batch. */
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

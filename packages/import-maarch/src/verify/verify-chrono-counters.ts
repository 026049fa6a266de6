import type { Database } from '@mailroom/storage'
import type { Kysely } from 'kysely'
import type { MaarchSource } from '../source.js'
import type { Tally } from './tally.js'

/**
 * The chrono counters: each of the source (`chrono_…` parameters) must be in the target at its value or
 * above (the importer raises counters past the numbers already given, and Mailroom's own numbering goes on).
 */
export async function verifyChronoCounters(source: MaarchSource, target: Kysely<Database>, tally: Tally) {
  const given = await source.rows(
    `select id, param_value_int from parameters where id like 'chrono\\_%' and param_value_int is not null order by id`,
  )
  const counters = new Map(
    (await target.selectFrom('chrono_counters').select(['counter_id', 'last_value']).execute()).map((c) => [
      c.counter_id,
      Number(c.last_value),
    ]),
  )
  // Counters of the target the source does not have (a year's numbers given, Mailroom's own) are not compared.
  tally.count('chronoCounters', given.length, given.filter((row) => counters.has(String(row.id))).length)
  for (const row of given) {
    const id = String(row.id)
    const value = Number(row.param_value_int)
    const found = counters.get(id)
    if (found === undefined)
      tally.differ({ kind: 'chronoCounters', id, what: 'missing in the target', source: String(value) })
    else if (found < value)
      tally.differ({
        kind: 'chronoCounters',
        id,
        what: 'below the source: numbers already given would be given again',
        source: String(value),
        target: String(found),
      })
  }
}

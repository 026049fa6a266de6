import { type RawBuilder, sql } from 'kysely'

/**
 * The keys of 20.10's `order_alphanum(alt_identifier)`, its natural order of chrono numbers
 * (`MAARCH/2020A/2` before `MAARCH/2020A/10`): the text before the trailing number, then that number. A record
 * without chrono has null keys (last ascending, first descending, as `order_alphanum(null)` in 20.10).
 */
export function chronoOrderKeys(chrono: RawBuilder<unknown>): RawBuilder<unknown>[] {
  return [sql`regexp_replace(${chrono}, '[0-9]+$', '')`, sql`nullif(substring(${chrono} from '[0-9]+$'), '')::numeric`]
}

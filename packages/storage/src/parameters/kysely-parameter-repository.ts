import type { Parameter, ParameterRepository } from '@mailroom/core'
import { type Kysely, sql } from 'kysely'
import type { Database } from '../database/schema.js'

/**
 * The parameters' rows, their timestamp printed as Maarch prints it (and as the organisation document writes
 * it), whatever the server's time zone.
 */
export function selectParameters(db: Kysely<Database>) {
  return db
    .selectFrom('parameters')
    .select([
      'id',
      'description',
      'param_value_string',
      'param_value_int',
      sql<string | null>`to_char(param_value_date, 'YYYY-MM-DD HH24:MI:SS')`.as('param_value_date'),
    ])
}

/** Parameters, read side. */
export class KyselyParameterRepository implements ParameterRepository {
  readonly #db: Kysely<Database>

  constructor(db: Kysely<Database>) {
    this.#db = db
  }

  #select() {
    return selectParameters(this.#db)
  }

  list(): Promise<Parameter[]> {
    return this.#select().orderBy('id').execute()
  }

  async find(id: string): Promise<Parameter | null> {
    return (await this.#select().where('id', '=', id).executeTakeFirst()) ?? null
  }
}

import type { IndexingModelRepository, IndexingModelRow } from '@mailroom/core'
import type { Kysely } from 'kysely'
import type { Database } from '../database/schema.js'

const MODEL_COLUMNS = [
  'id',
  'label',
  'category',
  'default',
  'owner',
  'private',
  'master',
  'enabled',
  'mandatory_file',
] as const

/** Indexing models, read side. */
export class KyselyIndexingModelRepository implements IndexingModelRepository {
  readonly #db: Kysely<Database>

  constructor(db: Kysely<Database>) {
    this.#db = db
  }

  listVisible(userId: number): Promise<IndexingModelRow[]> {
    return this.#db
      .selectFrom('indexing_models')
      .select(MODEL_COLUMNS)
      .where('enabled', '=', true)
      .where((eb) => eb.or([eb('owner', '=', userId), eb('private', '=', false)]))
      .orderBy('id')
      .execute()
  }

  async find(id: number) {
    const model = await this.#db
      .selectFrom('indexing_models')
      .select(MODEL_COLUMNS)
      .where('id', '=', id)
      .executeTakeFirst()
    if (!model) return null
    const fields = await this.#db
      .selectFrom('indexing_models_fields')
      .select(['identifier', 'mandatory', 'default_value', 'unit', 'enabled'])
      .where('model_id', '=', id)
      .orderBy('id')
      .execute()
    return { model, fields }
  }
}

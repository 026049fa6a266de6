import type { DoctypeRepository, DoctypeRow } from '@mailroom/core'
import type { Kysely } from 'kysely'
import type { Database } from '../database/schema.js'

const DOCTYPE_COLUMNS = [
  'type_id',
  'description',
  'enabled',
  'doctypes_first_level_id',
  'doctypes_second_level_id',
  'process_delay',
  'process_mode',
] as const

/** The document-type tree, read side. */
export class KyselyDoctypeRepository implements DoctypeRepository {
  readonly #db: Kysely<Database>

  constructor(db: Kysely<Database>) {
    this.#db = db
  }

  async enabledTree() {
    const [firstLevels, secondLevels, doctypes] = await Promise.all([
      this.#db
        .selectFrom('doctypes_first_level')
        .select(['doctypes_first_level_id', 'doctypes_first_level_label', 'css_style', 'enabled'])
        .where('enabled', '=', 'Y')
        .orderBy('doctypes_first_level_label')
        .execute(),
      this.#db
        .selectFrom('doctypes_second_level')
        .select([
          'doctypes_second_level_id',
          'doctypes_second_level_label',
          'doctypes_first_level_id',
          'css_style',
          'enabled',
        ])
        .where('enabled', '=', 'Y')
        .orderBy('doctypes_second_level_label')
        .execute(),
      this.#db
        .selectFrom('doctypes')
        .select(DOCTYPE_COLUMNS)
        .where('enabled', '=', 'Y')
        .orderBy('description')
        .execute(),
    ])
    return { firstLevels, secondLevels, doctypes }
  }

  async findDoctype(typeId: number): Promise<DoctypeRow | null> {
    return (
      (await this.#db
        .selectFrom('doctypes')
        .select(DOCTYPE_COLUMNS)
        .where('type_id', '=', typeId)
        .executeTakeFirst()) ?? null
    )
  }
}

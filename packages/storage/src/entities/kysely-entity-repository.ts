import type { EntityRepository, EntityRow } from '@mailroom/core'
import type { Kysely } from 'kysely'
import type { Database } from '../database/schema.js'

const COLUMNS = [
  'id',
  'entity_id',
  'entity_label',
  'short_label',
  'entity_type',
  'enabled',
  'adrs_1',
  'adrs_2',
  'adrs_3',
  'zipcode',
  'city',
  'country',
  'email',
  'business_id',
  'parent_entity_id',
  'ldap_id',
  'archival_agency',
  'archival_agreement',
  'entity_full_name',
] as const

/** Entities, read side. */
export class KyselyEntityRepository implements EntityRepository {
  readonly #db: Kysely<Database>

  constructor(db: Kysely<Database>) {
    this.#db = db
  }

  async findByEntityId(entityId: string): Promise<EntityRow | null> {
    return (
      (await this.#db.selectFrom('entities').select(COLUMNS).where('entity_id', '=', entityId).executeTakeFirst()) ??
      null
    )
  }

  async findById(id: number): Promise<EntityRow | null> {
    return (await this.#db.selectFrom('entities').select(COLUMNS).where('id', '=', id).executeTakeFirst()) ?? null
  }

  async listAll(): Promise<EntityRow[]> {
    return this.#db.selectFrom('entities').select(COLUMNS).orderBy('entity_id').execute()
  }
}

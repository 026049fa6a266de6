import type {
  Actor,
  ActorGroup,
  AuthenticationMethodName,
  UserCredentials,
  UserMode,
  UserRepository,
} from '@mailroom/core'
import { CompiledQuery, type Kysely, sql } from 'kysely'
import type { Database } from '../database/schema.js'

const ACCESS_VERSION_QUERY = CompiledQuery.raw('select version::text as version from access_version')

/** Users, their entities and groups, read with one query per concern. */
export class KyselyUserRepository implements UserRepository {
  readonly #db: Kysely<Database>
  readonly #onAccessChange: (() => void) | undefined
  #lastAccessVersion: string | null = null

  /** `onAccessChange` runs when the access version is seen to move (another server changed users or entities). */
  constructor(db: Kysely<Database>, options: { readonly onAccessChange?: () => void } = {}) {
    this.#db = db
    this.#onAccessChange = options.onAccessChange
  }

  async findCredentialsByLogin(login: string): Promise<UserCredentials | null> {
    const row = await this.#credentials().where(sql`lower(user_id)`, '=', login.toLowerCase()).executeTakeFirst()
    return row ? toCredentials(row) : null
  }

  async findCredentialsById(id: number): Promise<UserCredentials | null> {
    const row = await this.#credentials().where('id', '=', id).executeTakeFirst()
    return row ? toCredentials(row) : null
  }

  async loadActor(userId: number): Promise<Actor | null> {
    const user = await this.#db
      .selectFrom('users')
      .select(['id', 'user_id', 'firstname', 'lastname', 'mail', 'mode'])
      .where('id', '=', userId)
      .executeTakeFirst()
    if (!user) return null
    const [entities, groups] = await Promise.all([
      this.#db
        .selectFrom('users_entities as ue')
        .innerJoin('entities as e', 'e.entity_id', 'ue.entity_id')
        .select(['e.id', 'e.entity_id', 'ue.primary_entity'])
        .where('ue.user_id', '=', userId)
        .orderBy('e.entity_id')
        .execute(),
      this.#db
        .selectFrom('usergroup_content as uc')
        .innerJoin('usergroups as g', 'g.id', 'uc.group_id')
        .leftJoin('security as s', 's.group_id', 'g.group_id')
        .select([
          'g.id',
          'g.group_id',
          'g.can_index',
          'g.indexation_parameters',
          'g.can_read_safe',
          'g.privileges',
          's.where_clause',
        ])
        .where('uc.user_id', '=', userId)
        .orderBy('g.group_id')
        .orderBy('s.security_id')
        .execute(),
    ])
    const byGroup = new Map<number, ActorGroup>()
    for (const g of groups) {
      const existing = byGroup.get(g.id)
      const clause = g.where_clause ?? null
      if (existing) {
        // Several security rows of one group widen its perimeter.
        if (clause)
          byGroup.set(g.id, {
            ...existing,
            securityClause: existing.securityClause ? `(${existing.securityClause}) or (${clause})` : clause,
          })
        continue
      }
      byGroup.set(g.id, {
        id: g.id,
        groupId: g.group_id,
        canIndex: g.can_index,
        securityClause: clause,
        indexingEntities: g.indexation_parameters?.entities ?? [],
        indexingKeywords: g.indexation_parameters?.keywords ?? [],
        digitalSafe: g.can_read_safe,
        privileges: g.privileges,
      })
    }
    return {
      id: user.id,
      login: user.user_id,
      firstname: user.firstname,
      lastname: user.lastname,
      email: user.mail,
      mode: user.mode as UserMode,
      entities: entities.map((e) => ({ id: e.id, entityId: e.entity_id, primary: e.primary_entity === 'Y' })),
      groups: [...byGroup.values()],
    }
  }

  async addRefreshToken(userId: number, tokenId: string, keep: number): Promise<void> {
    await this.#db.transaction().execute(async (trx) => {
      const row = await trx
        .selectFrom('users')
        .select('refresh_token')
        .where('id', '=', userId)
        .forUpdate()
        .executeTakeFirst()
      const ids = [...(row?.refresh_token ?? []), tokenId].slice(-keep)
      await trx
        .updateTable('users')
        .set({ refresh_token: JSON.stringify(ids) })
        .where('id', '=', userId)
        .execute()
    })
  }

  async setServiceToken(userId: number, tokenId: string): Promise<void> {
    await this.#db.updateTable('users').set({ service_token_id: tokenId }).where('id', '=', userId).execute()
  }

  async replacePasswordHash(userId: number, previousHash: string, newHash: string): Promise<boolean> {
    const result = await this.#db
      .updateTable('users')
      .set({ password: newHash })
      .where('id', '=', userId)
      .where('password', '=', previousHash)
      .executeTakeFirst()
    return result.numUpdatedRows > 0n
  }

  async accessVersion(): Promise<string> {
    // Read on every authenticated request: compiled once rather than built each time.
    const { rows } = await this.#db.executeQuery<{ version: string }>(ACCESS_VERSION_QUERY)
    const version = rows[0]?.version ?? '0'
    if (this.#lastAccessVersion !== null && version !== this.#lastAccessVersion) this.#onAccessChange?.()
    this.#lastAccessVersion = version
    return version
  }

  #credentials() {
    return this.#db
      .selectFrom('users')
      .select([
        'id',
        'user_id',
        'password',
        'status',
        'mode',
        'authentication',
        'locked_until',
        'refresh_token',
        'service_token_id',
      ])
  }
}

function toCredentials(row: {
  id: number
  user_id: string
  password: string
  status: string
  mode: string
  authentication: string
  locked_until: Date | string | null
  refresh_token: string[] | null
  service_token_id: string | null
}): UserCredentials {
  return {
    id: row.id,
    login: row.user_id,
    authentication: row.authentication as AuthenticationMethodName,
    passwordHash: row.password,
    status: row.status,
    mode: row.mode as UserMode,
    lockedUntil: row.locked_until ? new Date(row.locked_until) : null,
    refreshTokenIds: Array.isArray(row.refresh_token) ? row.refresh_token : [],
    serviceTokenId: row.service_token_id,
  }
}

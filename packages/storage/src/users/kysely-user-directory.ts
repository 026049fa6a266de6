import type { StoredProfile, UserDirectory, UserListItem } from '@mailroom/core'
import { type Kysely, sql } from 'kysely'
import { profileBasketsOf } from '../baskets/basket-rows.js'
import type { Database } from '../database/schema.js'

/** Users as GET /rest/users and GET /rest/currentUser/profile read them (not the authentication's reads). */
export class KyselyUserDirectory implements UserDirectory {
  readonly #db: Kysely<Database>

  constructor(db: Kysely<Database>) {
    this.#db = db
  }

  list(entities: readonly string[] | null): Promise<UserListItem[]> {
    let query = this.#db
      .selectFrom('users as u')
      .select(['u.id', 'u.user_id', 'u.firstname', 'u.lastname', 'u.status', 'u.mail', 'u.mode'])
      .where('u.status', '!=', 'DEL')
    if (entities !== null) {
      const codes = entities.length > 0 ? [...entities] : ['']
      query = query.where((eb) =>
        eb.or([
          eb(
            'u.id',
            'in',
            eb.selectFrom('users_entities as member').select('member.user_id').where('member.entity_id', 'in', codes),
          ),
          eb.not(
            eb.exists(eb.selectFrom('users_entities as ue').select('ue.user_id').whereRef('ue.user_id', '=', 'u.id')),
          ),
        ]),
      )
    }
    return query.orderBy('u.id').execute()
  }

  async profile(userId: number): Promise<StoredProfile | null> {
    const user = await this.#db
      .selectFrom('users')
      .select(['id', 'user_id', 'firstname', 'lastname', 'mail', 'status', 'mode', 'authentication'])
      .where('id', '=', userId)
      .executeTakeFirst()
    if (!user) return null
    const [groups, entities, followed, baskets] = await Promise.all([
      this.#db
        .selectFrom('usergroup_content as uc')
        .innerJoin('usergroups as g', 'g.id', 'uc.group_id')
        .select([
          'g.id',
          'g.can_index',
          'g.group_id',
          'g.group_desc',
          'g.indexation_parameters',
          'uc.role',
          'g.privileges',
          // A group has at most one clause in a document; an imported one may have several: the first comment.
          sql<string | null>`(select s.maarch_comment from security s where s.group_id = g.group_id
            order by s.security_id limit 1)`.as('maarch_comment'),
        ])
        .where('uc.user_id', '=', userId)
        .orderBy('g.id')
        .execute(),
      this.#db
        .selectFrom('users_entities as ue')
        .innerJoin('entities as e', 'e.entity_id', 'ue.entity_id')
        .select(['e.id', 'e.entity_id', 'e.entity_label', 'ue.user_role', 'ue.primary_entity'])
        .where('ue.user_id', '=', userId)
        .orderBy('ue.primary_entity', 'desc')
        .orderBy('e.entity_id')
        .execute(),
      this.#db
        .selectFrom('users_followed_resources')
        .select(sql<string>`count(*)`.as('count'))
        .where('user_id', '=', userId)
        .executeTakeFirstOrThrow(),
      profileBasketsOf(this.#db, userId),
    ])
    return {
      user,
      groups: groups.map((group) => ({
        ...group,
        indexation_parameters: (group.indexation_parameters ?? {}) as Record<string, unknown>,
        privileges: group.privileges ?? [],
      })),
      entities,
      followedResources: Number(followed.count),
      baskets,
    }
  }
}

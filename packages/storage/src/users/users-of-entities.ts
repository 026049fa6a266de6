import type { RedirectUser } from '@mailroom/core'
import type { Kysely } from 'kysely'
import type { Database } from '../database/schema.js'
import { primaryEntityLabelOf } from './primary-entity-label.js'

/**
 * The users of these entities (codes) a letter may be given to: neither deleted, absent nor suspended, by last then
 * first name, each once, with their primary entity's label. What the redirect dialog and the diffusion list's
 * assignee menu offer.
 */
export async function usersOfEntities(db: Kysely<Database>, entityIds: readonly string[]): Promise<RedirectUser[]> {
  if (entityIds.length === 0) return []
  const rows = await db
    .selectFrom('users as u')
    .select(['u.id', 'u.user_id', 'u.firstname', 'u.lastname', primaryEntityLabelOf('u.id').as('entity_label')])
    .where('u.status', 'not in', ['DEL', 'ABS', 'SPD'])
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('users_entities as ue')
          .select('ue.user_id')
          .whereRef('ue.user_id', '=', 'u.id')
          .where('ue.entity_id', 'in', [...entityIds]),
      ),
    )
    .orderBy('u.lastname')
    .orderBy('u.firstname')
    .execute()
  return rows.map((row) => ({
    id: row.id,
    user_id: row.user_id,
    firstname: row.firstname,
    lastname: row.lastname,
    labelToDisplay: `${row.firstname ?? ''} ${row.lastname ?? ''}`,
    descriptionToDisplay: row.entity_label ?? null,
  }))
}

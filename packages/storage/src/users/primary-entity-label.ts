import { type RawBuilder, sql } from 'kysely'

/**
 * The label of a user's primary entity, as a subquery of a select (null without one): how 20.10 describes the
 * author of a note and a user of a diffusion list. `userColumn` is the column holding the user's id (`n.user_id`).
 */
export function primaryEntityLabelOf(userColumn: string): RawBuilder<string | null> {
  return sql<string | null>`(
    select e.entity_label from users_entities ue join entities e on e.entity_id = ue.entity_id
    where ue.user_id = ${sql.ref(userColumn)} and ue.primary_entity = 'Y' limit 1)`
}

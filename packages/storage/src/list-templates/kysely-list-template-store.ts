import type {
  CircuitPrivilege,
  ListTemplateStore,
  ListTemplateType,
  StoredListTemplate,
  StoredListTemplateItem,
} from '@mailroom/core'
import { type Kysely, sql } from 'kysely'
import type { Database } from '../database/schema.js'
import { primaryEntityLabelOf } from '../users/primary-entity-label.js'
import { usersOfEntities } from '../users/users-of-entities.js'

const CIRCUIT_PRIVILEGES: readonly CircuitPrivilege[] = ['visa_documents', 'sign_document', 'avis_documents']

/**
 * The circuit privileges a user holds through their groups (every one for a root user), as a subquery of a select:
 * what a visa or opinion circuit flags its members by. `userColumn` holds the user's id.
 */
function circuitPrivilegesOf(userColumn: string) {
  return sql<CircuitPrivilege[]>`(case when u.mode in ('root_visible', 'root_invisible')
    then ${sql.val(CIRCUIT_PRIVILEGES)}::text[]
    else array(select distinct p.privilege from usergroup_content uc
      join usergroups g on g.id = uc.group_id
      cross join lateral unnest(g.privileges) as p(privilege)
      where uc.user_id = ${sql.ref(userColumn)} and p.privilege = any(${sql.val(CIRCUIT_PRIVILEGES)}::text[])
      order by p.privilege) end)`
}

/** Core's templates port over kysely: a department's templates, then their members with what they name. */
export function kyselyListTemplateStore(db: Kysely<Database>): ListTemplateStore {
  return {
    usersOfEntity: (entityCode) => usersOfEntities(db, [entityCode]),

    async templatesOfEntity(entityId: number, type: ListTemplateType | null, readerId: number) {
      let templatesQuery = db
        .selectFrom('list_templates')
        .select(['id', 'title', 'description', 'type', 'entity_id', 'owner'])
        .where('entity_id', '=', entityId)
        .where((eb) => eb.or([eb('owner', 'is', null), eb('owner', '=', readerId)]))
        .orderBy('id')
      if (type !== null) templatesQuery = templatesQuery.where('type', '=', type)
      const templates = await templatesQuery.execute()
      if (templates.length === 0) return []
      const items = await db
        .selectFrom('list_templates_items as i')
        .leftJoin('users as u', (join) => join.onRef('u.id', '=', 'i.item_id').on('i.item_type', '=', 'user'))
        .leftJoin('entities as e', (join) => join.onRef('e.id', '=', 'i.item_id').on('i.item_type', '=', 'entity'))
        .select([
          'i.id',
          'i.list_template_id',
          'i.item_id',
          'i.item_type',
          'i.item_mode',
          'i.sequence',
          'u.id as user_serial',
          'u.firstname',
          'u.lastname',
          'u.status',
          primaryEntityLabelOf('i.item_id').as('primary_entity_label'),
          circuitPrivilegesOf('i.item_id').as('circuit_privileges'),
          'e.entity_label',
        ])
        .where(
          'i.list_template_id',
          'in',
          templates.map((template) => template.id),
        )
        .orderBy('i.sequence')
        .orderBy('i.id')
        .execute()
      return templates.map(
        (template): StoredListTemplate => ({
          id: template.id,
          title: template.title,
          description: template.description,
          type: template.type,
          entityId: template.entity_id,
          owner: template.owner,
          items: items
            .filter((item) => item.list_template_id === template.id)
            .map(
              (item): StoredListTemplateItem => ({
                id: item.id,
                listTemplateId: item.list_template_id,
                itemId: item.item_id,
                itemType: item.item_type,
                itemMode: item.item_mode,
                sequence: item.sequence,
                user:
                  item.user_serial === null
                    ? null
                    : {
                        firstname: item.firstname,
                        lastname: item.lastname,
                        status: item.status ?? 'OK',
                        primaryEntityLabel: item.primary_entity_label,
                        circuitPrivileges: item.circuit_privileges ?? [],
                      },
                entityLabel: item.entity_label,
              }),
            ),
        }),
      )
    },
  }
}

import type { ListTemplateDefinition, OrganisationPlan } from '@mailroom/core'
import { type Kysely, sql, type Transaction } from 'kysely'
import type { Database } from '../database/schema.js'

type Trx = Transaction<Database> | Kysely<Database>

/**
 * The diffusion list templates as the organisation document states them: by id, each with its department's code,
 * its owner's login and its members in sequence (logins and entity codes). A member naming a user or an entity that
 * no longer exists cannot be said by the document: it is left out (apply never writes one).
 */
export async function readListTemplateSection(db: Kysely<Database>): Promise<ListTemplateDefinition[]> {
  const [templates, members] = await Promise.all([
    db
      .selectFrom('list_templates as t')
      .leftJoin('entities as e', 'e.id', 't.entity_id')
      .leftJoin('users as u', 'u.id', 't.owner')
      .select(['t.id', 't.title', 't.description', 't.type', 'e.entity_id as entity', 'u.user_id as owner'])
      .orderBy('t.id')
      .execute(),
    db
      .selectFrom('list_templates_items as i')
      .leftJoin('users as u', (join) => join.onRef('u.id', '=', 'i.item_id').on('i.item_type', '=', 'user'))
      .leftJoin('entities as e', (join) => join.onRef('e.id', '=', 'i.item_id').on('i.item_type', '=', 'entity'))
      .select(['i.list_template_id', 'i.item_type', 'i.item_mode', 'u.user_id as login', 'e.entity_id as code'])
      .orderBy('i.list_template_id')
      .orderBy('i.sequence')
      .orderBy('i.id')
      .execute(),
  ])
  return templates.map((t) => ({
    id: t.id,
    title: t.title,
    description: t.description,
    type: t.type as ListTemplateDefinition['type'],
    entity: t.entity,
    owner: t.owner,
    members: members
      .filter((m) => m.list_template_id === t.id)
      .flatMap((m) => {
        const id = m.item_type === 'user' ? m.login : m.code
        return id === null ? [] : [{ type: m.item_type, id, mode: m.item_mode }]
      }),
  }))
}

/** Removes the templates a plan removes (their members go with them), before the users and entities they name. */
export async function removeListTemplates(trx: Trx, removed: readonly ListTemplateDefinition[]): Promise<void> {
  if (removed.length > 0)
    await trx
      .deleteFrom('list_templates')
      .where(
        'id',
        'in',
        removed.map((t) => t.id),
      )
      .execute()
}

/**
 * Writes the templates a plan adds or changes, after the users and entities they name: each row under its id,
 * its members written anew in their order (sequence 0, 1, …) under the serial ids of what they name.
 */
export async function applyListTemplates(
  trx: Trx,
  changes: OrganisationPlan['sections']['listTemplates'],
): Promise<void> {
  const written = [...changes.added, ...changes.changed]
  if (written.length === 0) return
  const [entities, users] = await Promise.all([
    trx.selectFrom('entities').select(['id', 'entity_id']).execute(),
    trx
      .selectFrom('users')
      .select(['id', sql<string>`lower(user_id)`.as('login')])
      .execute(),
  ])
  const entitySerial = new Map(entities.map((e) => [e.entity_id, e.id]))
  const userSerial = new Map(users.map((u) => [u.login, u.id]))
  const serialOf = (type: 'user' | 'entity', name: string) => {
    const serial = type === 'user' ? userSerial.get(name.toLowerCase()) : entitySerial.get(name)
    // Validation checked every name against what the apply keeps: a missing one is a defect, never stored.
    if (serial === undefined) throw new Error(`list template names no ${type} ${JSON.stringify(name)}`)
    return serial
  }
  const row = (t: ListTemplateDefinition) => ({
    title: t.title,
    description: t.description,
    type: t.type,
    entity_id: t.entity === null ? null : serialOf('entity', t.entity),
    owner: t.owner === null ? null : serialOf('user', t.owner),
  })
  // Written as upserts: a template the plan saw as changed may be gone already, taken by the cascade of a user or
  // department the same apply removed (its owner pruned), and is then written anew under its id.
  await trx
    .insertInto('list_templates')
    .values(written.map((t) => ({ id: t.id, ...row(t) })))
    .onConflict((conflict) =>
      conflict.column('id').doUpdateSet((eb) => ({
        title: eb.ref('excluded.title'),
        description: eb.ref('excluded.description'),
        type: eb.ref('excluded.type'),
        entity_id: eb.ref('excluded.entity_id'),
        owner: eb.ref('excluded.owner'),
      })),
    )
    .execute()
  if (changes.changed.length > 0)
    await trx
      .deleteFrom('list_templates_items')
      .where(
        'list_template_id',
        'in',
        changes.changed.map((t) => t.id),
      )
      .execute()
  const members = written.flatMap((t) =>
    t.members.map((member, sequence) => ({
      list_template_id: t.id,
      item_id: serialOf(member.type, member.id),
      item_type: member.type,
      item_mode: member.mode,
      sequence,
    })),
  )
  if (members.length > 0) await trx.insertInto('list_templates_items').values(members).execute()
  await sql`select setval(pg_get_serial_sequence('list_templates', 'id'), coalesce((select max(id) from list_templates), 0) + 1, false)`.execute(
    trx,
  )
}

import { z } from 'zod'
import { code, optionalText, serial, storable, text } from './document-fields.js'
import type { IssueSink } from './validate-baskets.js'

/** The kinds of template: a department's diffusion list, its visa circuit, its opinion circuit. */
export const LIST_TEMPLATE_TYPES = ['diffusionList', 'visaCircuit', 'opinionCircuit'] as const

/** A member of a template: a user (login) or an entity (code), in a role. */
export const ListTemplateMemberSchema = z.strictObject({
  type: z.enum(['user', 'entity']),
  /** A login, or an entity code. */
  id: storable(128).min(1),
  /** The role: dest (the assignee), cc, avis, visa, sign, … */
  mode: z.string().regex(/^[a-z_]{1,64}$/, 'lower-case letters and "_", at most 64'),
})

/**
 * A diffusion list template (list_templates, list_templates_items): what a department's letters are sent to by
 * default, which 20.10's web client proposes when a letter is redirected to it or indexed for it; or a visa or
 * opinion circuit. The members' order is their sequence.
 */
export const ListTemplateDefinitionSchema = z.strictObject({
  id: serial,
  title: text(1024),
  description: optionalText(1024),
  type: z.enum(LIST_TEMPLATE_TYPES),
  /** The department's code; null for a user's own template. */
  entity: code(32).nullable().default(null),
  /** Login of the user whose own template this is; null: the department's. */
  owner: storable(128).min(1).nullable().default(null),
  members: z.array(ListTemplateMemberSchema).default([]),
})

/** A template as read (defaults applied). */
export type ListTemplateDefinition = z.output<typeof ListTemplateDefinitionSchema>

/** What templates may name: entity codes and logins (lower case), of the document or stored. */
export interface ListTemplateReferences {
  readonly entities: ReadonlySet<string>
  readonly users: ReadonlySet<string>
}

/**
 * Templates: unique ids, a department or an owner that exists, members that exist, one assignee at most (20.10's
 * rule). Whether the assignee belongs to the department is not checked: 20.10's own data does not always hold it.
 */
export function checkListTemplates(
  sink: IssueSink,
  templates: readonly ListTemplateDefinition[],
  refs: ListTemplateReferences,
): void {
  const seen = new Map<number, number>()
  for (const [index, template] of templates.entries()) {
    const path = `listTemplates[${index}]`
    const first = seen.get(template.id)
    if (first !== undefined) sink.add(`${path}.id`, `duplicate template ${template.id} (also listTemplates[${first}])`)
    else seen.set(template.id, index)
    if (template.entity !== null && !refs.entities.has(template.entity))
      sink.add(`${path}.entity`, `no entity ${JSON.stringify(template.entity)}`)
    if (template.owner !== null && !refs.users.has(template.owner.toLowerCase()))
      sink.add(`${path}.owner`, `no user ${JSON.stringify(template.owner)}`)
    let assignees = 0
    for (const [i, member] of template.members.entries()) {
      const known = member.type === 'user' ? refs.users.has(member.id.toLowerCase()) : refs.entities.has(member.id)
      if (!known) sink.add(`${path}.members[${i}].id`, `no ${member.type} ${JSON.stringify(member.id)}`)
      if (member.mode === 'dest' && ++assignees > 1) sink.add(`${path}.members[${i}].mode`, 'a second assignee (dest)')
    }
  }
}

/**
 * Removals the templates kept after the apply (the document's, or the stored ones it leaves out) would still name:
 * a department or an owner, a member. Refused, never cascaded: a prune of users or entities must not empty the
 * templates nobody listed.
 */
export function listTemplateNamesRemoved(
  templates: readonly ListTemplateDefinition[],
  removed: { readonly entities: readonly string[]; readonly logins: readonly string[] },
): { readonly path: string; readonly message: string }[] {
  const entities = new Set(removed.entities)
  const logins = new Set(removed.logins.map((login) => login.toLowerCase()))
  const issues: { path: string; message: string }[] = []
  const refuse = (section: 'entities' | 'users', name: string, template: number, how: string) =>
    issues.push({ path: section, message: `cannot remove ${JSON.stringify(name)}: template ${template} ${how}` })
  for (const template of templates) {
    if (template.entity !== null && entities.has(template.entity))
      refuse('entities', template.entity, template.id, 'is its template')
    if (template.owner !== null && logins.has(template.owner.toLowerCase()))
      refuse('users', template.owner.toLowerCase(), template.id, 'belongs to them')
    for (const member of template.members) {
      if (member.type === 'entity' ? entities.has(member.id) : logins.has(member.id.toLowerCase()))
        refuse(member.type === 'entity' ? 'entities' : 'users', member.id, template.id, `names it (${member.mode})`)
    }
  }
  return issues
}

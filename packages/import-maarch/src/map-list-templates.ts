import { LIST_TEMPLATE_TYPES, type ListTemplateDefinition } from '@mailroom/core'

type Row = Record<string, unknown>

/** Something of the templates Mailroom could not carry over as it was, and what was done instead. */
interface TemplateNote {
  readonly section: string
  readonly id: string
  readonly message: string
}

const types = new Set<string>(LIST_TEMPLATE_TYPES)
const MODE = /^[a-z_]{1,64}$/

/**
 * Maarch 20.10's diffusion list templates (list_templates, list_templates_items) as the organisation document's
 * `listTemplates`: ids kept, departments by code, owners and user members by login, members in their sequence. A
 * template whose department or owner is not carried over (an unknown id; users with status DEL are not imported) is
 * left out, and so is a member naming such a user or entity, an unknown kind or role, or a second assignee: each
 * noted. 20.10 itself leaves a removed user out of a diffusion list when it shows it.
 */
export function mapListTemplates(
  templates: readonly Row[],
  items: readonly Row[],
  names: { readonly entityCode: ReadonlyMap<number, string>; readonly login: ReadonlyMap<number, string> },
  notes: TemplateNote[],
): ListTemplateDefinition[] {
  const note = (id: unknown, message: string) => notes.push({ section: 'listTemplates', id: String(id), message })
  return templates.flatMap((t): ListTemplateDefinition[] => {
    const type = String(t.type)
    if (!types.has(type)) {
      note(t.id, `type ${type} unknown: template left out`)
      return []
    }
    const entity = t.entity_id === null || t.entity_id === undefined ? null : names.entityCode.get(Number(t.entity_id))
    if (entity === undefined) {
      note(t.id, `entity ${String(t.entity_id)} does not exist: template left out`)
      return []
    }
    const owner = t.owner === null || t.owner === undefined ? null : names.login.get(Number(t.owner))
    if (owner === undefined) {
      note(t.id, `owner ${String(t.owner)} is not imported: template left out`)
      return []
    }
    let assignee = false
    const members = items
      .filter((item) => Number(item.list_template_id) === Number(t.id))
      .sort((a, b) => Number(a.sequence) - Number(b.sequence) || Number(a.id) - Number(b.id))
      .flatMap((item) => {
        const [kind, mode] = [String(item.item_type), String(item.item_mode)]
        const name =
          kind === 'user'
            ? names.login.get(Number(item.item_id))
            : kind === 'entity'
              ? names.entityCode.get(Number(item.item_id))
              : undefined
        let problem: string | null = null
        if (kind !== 'user' && kind !== 'entity') problem = `kind ${kind} unknown`
        else if (name === undefined) problem = `${kind} ${String(item.item_id)} is not imported`
        else if (!MODE.test(mode)) problem = `role ${JSON.stringify(mode)} unknown`
        else if (mode === 'dest' && assignee) problem = 'a second assignee'
        if (problem !== null) {
          note(t.id, `member ${String(item.id)}: ${problem}: left out`)
          return []
        }
        if (mode === 'dest') assignee = true
        return [{ type: kind as 'user' | 'entity', id: name!, mode }]
      })
    const text = (value: unknown) => (value === null || value === undefined ? null : String(value))
    return [
      {
        id: Number(t.id),
        title: text(t.title) || text(t.description) || `Template ${String(t.id)}`,
        description: text(t.description),
        type: type as ListTemplateDefinition['type'],
        entity,
        owner,
        members,
      },
    ]
  })
}

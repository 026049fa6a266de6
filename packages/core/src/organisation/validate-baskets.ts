import { type ActionDefinition, type BasketDefinition, NO_STATUS } from './basket-definitions.js'

/** Where validation reports what it finds. */
export interface IssueSink {
  add(path: string, message: string): void
}

/** What the baskets and actions may name: statuses, actions, groups and entities (document or stored). */
export interface BasketReferences {
  readonly statuses: ReadonlySet<string>
  readonly actions: ReadonlySet<string>
  readonly groups: ReadonlySet<string>
  readonly entities: ReadonlySet<string>
  /**
   * Null when a clause is readable, else why not. Clauses stored as they are (an import carries a 20.10
   * installation's clauses whole and reports those the clause language cannot take) are accepted here.
   */
  readonly clauseProblem: (clause: string) => string | null
}

function unique<T>(
  sink: IssueSink,
  items: readonly T[],
  section: string,
  keyOf: (item: T) => string,
  what: string,
): void {
  const seen = new Map<string, number>()
  for (const [index, item] of items.entries()) {
    const key = keyOf(item)
    const first = seen.get(key)
    if (first !== undefined)
      sink.add(`${section}[${index}].id`, `duplicate ${what} ${JSON.stringify(key)} (also ${section}[${first}])`)
    else seen.set(key, index)
  }
}

/** Actions: unique ids, a status that exists (or none). */
export function checkActions(sink: IssueSink, actions: readonly ActionDefinition[], refs: BasketReferences): void {
  unique(sink, actions, 'actions', (a) => String(a.id), 'action')
  for (const [index, action] of actions.entries()) {
    const status = action.status
    if (status !== null && status !== '' && status !== NO_STATUS && !refs.statuses.has(status))
      sink.add(`actions[${index}].status`, `no status ${JSON.stringify(status)}`)
  }
}

/**
 * Baskets: unique codes, a readable clause, groups that exist (each once), actions that exist (each once per
 * group, one default at most), readable extra conditions, redirect choices naming an entity or a keyword.
 */
export function checkBaskets(sink: IssueSink, baskets: readonly BasketDefinition[], refs: BasketReferences): void {
  unique(sink, baskets, 'baskets', (b) => b.id, 'basket')
  for (const [index, basket] of baskets.entries()) {
    const path = `baskets[${index}]`
    const problem = refs.clauseProblem(basket.clause)
    if (problem !== null) sink.add(`${path}.clause`, problem)
    const groups = new Set<string>()
    for (const [g, given] of basket.groups.entries()) {
      const groupPath = `${path}.groups[${g}]`
      if (!refs.groups.has(given.group)) sink.add(`${groupPath}.group`, `no group ${JSON.stringify(given.group)}`)
      else if (groups.has(given.group))
        sink.add(`${groupPath}.group`, `group ${JSON.stringify(given.group)} listed twice`)
      groups.add(given.group)
      const actions = new Set<number>()
      let defaults = 0
      for (const [a, link] of given.actions.entries()) {
        const linkPath = `${groupPath}.actions[${a}]`
        if (!refs.actions.has(String(link.action))) sink.add(`${linkPath}.action`, `no action ${link.action}`)
        else if (actions.has(link.action)) sink.add(`${linkPath}.action`, `action ${link.action} listed twice`)
        actions.add(link.action)
        if (link.default && ++defaults > 1) sink.add(`${linkPath}.default`, 'a second default action')
        if (link.where.trim() !== '') {
          const whereProblem = refs.clauseProblem(link.where)
          if (whereProblem !== null) sink.add(`${linkPath}.where`, whereProblem)
        }
        for (const [r, choice] of link.redirects.entries()) {
          const choicePath = `${linkPath}.redirects[${r}]`
          if (choice.entity === null && choice.keyword === null)
            sink.add(choicePath, 'names neither an entity nor a keyword')
          if (choice.entity !== null && !refs.entities.has(choice.entity))
            sink.add(`${choicePath}.entity`, `no entity ${JSON.stringify(choice.entity)}`)
        }
      }
    }
  }
}

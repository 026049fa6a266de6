import type { OrganisationDocument } from './organisation-schema.js'
import type { OrganisationIssue } from './validate-organisation.js'

/** What a prune removes that the baskets and actions kept after the apply would still name. */
export interface RemovedNames {
  readonly groups: readonly string[]
  readonly statuses: readonly string[]
  readonly actions: readonly number[]
}

/**
 * Removals the stored baskets and actions (those a document leaves out, so apply keeps them) still name: a
 * group given a basket, an action offered in one, a status an action sets. Refused, never cascaded: a prune
 * of actions must not take their links out of baskets nobody listed.
 */
export function basketNamesRemoved(
  document: OrganisationDocument,
  stored: OrganisationDocument,
  removed: RemovedNames,
): OrganisationIssue[] {
  const issues: OrganisationIssue[] = []
  const baskets = document.baskets ?? stored.baskets ?? []
  const actions = document.actions ?? stored.actions ?? []
  const groups = new Set(removed.groups)
  const gone = new Set(removed.actions)
  const statuses = new Set(removed.statuses)
  for (const basket of baskets)
    for (const given of basket.groups) {
      if (groups.has(given.group))
        issues.push({
          path: 'groups',
          message: `cannot remove ${JSON.stringify(given.group)}: basket ${JSON.stringify(basket.id)} is given to it`,
        })
      for (const link of given.actions)
        if (gone.has(link.action))
          issues.push({
            path: 'actions',
            message: `cannot remove ${link.action}: basket ${JSON.stringify(basket.id)} offers it to group ${JSON.stringify(given.group)}`,
          })
    }
  for (const action of actions)
    if (action.status !== null && statuses.has(action.status))
      issues.push({
        path: 'statuses',
        message: `cannot remove ${JSON.stringify(action.status)}: action ${action.id} sets it`,
      })
  return issues
}

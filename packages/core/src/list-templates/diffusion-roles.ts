import type { Actor } from '../actors/actor.js'
import { hasPrivilege, type Privilege } from '../actors/privileges.js'
import type { DiffusionRoles } from '../api/list-template-schemas.js'

/**
 * The roles of a letter's diffusion list, as 20.10 ships them for its department lists (`difflist_types` row
 * `entity_id`: `dest copy avis`, `copy` answered `cc`), in the order of its roles.xml, with its French labels.
 * Mailroom keeps no table of list types: these three are the roles its lists hold.
 */
const ROLES = [
  { id: 'dest', label: 'Attributaire', keepInListInstance: false, isAssignee: true },
  { id: 'cc', label: 'En copie', keepInListInstance: true, isAssignee: false },
  { id: 'avis', label: 'Pour avis', keepInListInstance: false, isAssignee: false },
] as const

/** Where a list is edited, and the privileges that let a user change its assignee, or its other roles only. */
const CONTEXT_PRIVILEGES: Readonly<Record<string, { assignee: Privilege; others: Privilege }>> = {
  indexation: { assignee: 'update_diffusion_indexing', others: 'update_diffusion_except_recipient_indexing' },
  process: { assignee: 'update_diffusion_process', others: 'update_diffusion_except_recipient_process' },
  details: { assignee: 'update_diffusion_details', others: 'update_diffusion_except_recipient_details' },
}

/**
 * The roles as `ListTemplateController::getRoles` answers them. In a redirect every role may change (the
 * redirect action itself is what the basket grants); in the three editing contexts the assignee may change with
 * `update_diffusion_<context>`, the other roles with it or `update_diffusion_except_recipient_<context>`; for any
 * other context (or none) `canUpdate` is left out, as 20.10 does.
 */
export function diffusionRolesFor(actor: Actor, context: string | undefined): Pick<DiffusionRoles, 'roles'>['roles'] {
  let assignee: boolean | undefined
  let others: boolean | undefined
  if (context === 'redirect') {
    assignee = true
    others = true
  } else if (context !== undefined && Object.hasOwn(CONTEXT_PRIVILEGES, context)) {
    const privileges = CONTEXT_PRIVILEGES[context]!
    assignee = hasPrivilege(actor, privileges.assignee)
    others = assignee || hasPrivilege(actor, privileges.others)
  }
  return ROLES.map(({ id, label, keepInListInstance, isAssignee }) => {
    const canUpdate = isAssignee ? assignee : others
    return { id, label, keepInListInstance, ...(canUpdate === undefined ? {} : { canUpdate }) }
  })
}

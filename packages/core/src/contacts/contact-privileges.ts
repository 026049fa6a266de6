import { type Actor, isRoot } from '../actors/actor.js'
import { fail } from '../errors/domain-error.js'

/** The 20.10 services (usergroups_services) the contacts routes check. */
export type ContactPrivilege = 'admin_contacts' | 'create_contacts' | 'update_contacts'

// TODO(privileges): replace with core's hasPrivilege once the Privileges commit lands on main.
function holds(actor: Actor, privilege: ContactPrivilege): boolean {
  if (isRoot(actor)) return true
  return actor.groups.some((group) =>
    ((group as { readonly privileges?: readonly string[] }).privileges ?? []).includes(privilege),
  )
}

/** Refuses with 403 Service forbidden unless the actor holds one of the privileges. */
export function requireContactPrivilege(actor: Actor, ...anyOf: readonly ContactPrivilege[]): void {
  if (!anyOf.some((privilege) => holds(actor, privilege))) fail('SERVICE_FORBIDDEN')
}

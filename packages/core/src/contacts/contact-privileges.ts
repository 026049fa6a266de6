import type { Actor } from '../actors/actor.js'
import { hasPrivilege } from '../actors/privileges.js'
import { fail } from '../errors/domain-error.js'

/** The 20.10 services (usergroups_services) the contacts routes check. */
export type ContactPrivilege = 'admin_contacts' | 'create_contacts' | 'update_contacts'

/** Refuses with 403 Service forbidden unless the actor holds one of the privileges (root holds every one). */
export function requireContactPrivilege(actor: Actor, ...anyOf: readonly ContactPrivilege[]): void {
  if (!anyOf.some((privilege) => hasPrivilege(actor, privilege))) fail('SERVICE_FORBIDDEN')
}

import { type Actor, isRoot } from './actor.js'

/**
 * The Maarch 20.10 privileges (its group "services", `usergroups_services.service_id`) that Mailroom's routes
 * check. A group of the organisation document may list any service id, so that an installation imported from
 * Maarch keeps its groups whole; only these change what Mailroom lets a user do.
 */
export const CHECKED_PRIVILEGES = [
  'admin_contacts',
  'create_contacts',
  'update_contacts',
  'add_links',
  'admin_users',
  'admin_parameters',
  'manage_attachments',
  'admin_indexing_models',
  'admin_custom_fields',
  'include_folders_and_followed_resources_perimeter',
  'view_doc_history',
  'view_full_history',
  'view_history',
  'view_technical_infos',
  // Who may change a letter's diffusion list where (GET /rest/roles' canUpdate): its assignee, or its other roles.
  'update_diffusion_indexing',
  'update_diffusion_except_recipient_indexing',
  'update_diffusion_process',
  'update_diffusion_except_recipient_process',
  'update_diffusion_details',
  'update_diffusion_except_recipient_details',
] as const

/** A privilege a route checks. */
export type Privilege = (typeof CHECKED_PRIVILEGES)[number]

/**
 * Whether the actor holds a privilege through one of its groups; root users hold every one, as in Maarch
 * 20.10 (`PrivilegeController::hasPrivilege`).
 *
 * @example
 * if (!hasPrivilege(actor, 'create_contacts')) fail('SERVICE_FORBIDDEN')
 */
export function hasPrivilege(actor: Pick<Actor, 'mode' | 'groups'>, privilege: Privilege): boolean {
  return isRoot(actor) || actor.groups.some((group) => group.privileges?.includes(privilege) === true)
}

/** Every privilege the actor holds through its groups, sorted, each once (root: the checked ones). */
export function privilegesOf(actor: Pick<Actor, 'mode' | 'groups'>): string[] {
  if (isRoot(actor)) return [...CHECKED_PRIVILEGES].sort()
  return [...new Set(actor.groups.flatMap((group) => group.privileges ?? []))].sort()
}

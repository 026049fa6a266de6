import { type Actor, isRoot } from '../actors/actor.js'
import { hasPrivilege } from '../actors/privileges.js'
import type { CurrentUserProfile, UsersResponse } from '../api/user-schemas.js'
import { profileBasketsOf } from '../baskets/profile-baskets.js'
import { entitiesAtOrBelow } from '../entities/list-entities.js'
import type { EntityRepository } from '../entities/ports.js'
import { fail } from '../errors/domain-error.js'
import type { UserDirectory } from './ports.js'

/**
 * `GET /rest/users` (privilege admin_users): root users see every user not deleted; other administrators the
 * users of their entities and below, and users without entity. `quota` is 20.10's empty list: Mailroom has
 * no user quota.
 */
export async function listUsers(
  users: UserDirectory,
  entities: EntityRepository,
  actor: Actor,
): Promise<UsersResponse> {
  if (!hasPrivilege(actor, 'admin_users')) fail('SERVICE_FORBIDDEN')
  const scope = isRoot(actor) ? null : [...entitiesAtOrBelow(actor, await entities.listAll())]
  return { users: await users.list(scope), quota: [] }
}

/** What the profile needs to know of the installation. */
export interface ProfileSettings {
  /** The minimum password length new passwords must have. */
  readonly passwordMinLength: number
}

/**
 * `GET /rest/currentUser/profile` as 20.10 answers it: the user row, groups (without their perimeter clause,
 * which is not the user's business), entities, the privileges of every group in turn (duplicates kept, as
 * 20.10 lists them; root: `ALL_PRIVILEGES`), the baskets as 20.10 lists them. Mailroom has no signatures or
 * feature tour: those lists are empty.
 */
export async function currentUserProfile(
  users: UserDirectory,
  settings: ProfileSettings,
  actor: Actor,
): Promise<CurrentUserProfile> {
  const stored = await users.profile(actor.id)
  // The caller was authenticated a moment ago: a user removed since is as good as unknown.
  if (!stored) fail('AUTHENTICATION_FAILED')
  const { user } = stored
  return {
    id: user.id,
    user_id: user.user_id,
    firstname: user.firstname,
    lastname: user.lastname,
    phone: null,
    mail: user.mail,
    initials: null,
    preferences: {},
    external_id: [],
    status: user.status,
    mode: user.mode,
    featureTour: [],
    signatures: [],
    emailSignatures: [],
    groups: stored.groups.map((group) => ({
      id: group.id,
      can_index: group.can_index,
      group_id: group.group_id,
      group_desc: group.group_desc,
      indexation_parameters: JSON.stringify({
        actions: [],
        entities: [],
        keywords: [],
        ...group.indexation_parameters,
      }),
      role: group.role ?? '',
      maarch_comment: group.maarch_comment,
    })),
    entities: stored.entities.map((entity) => ({
      id: entity.id,
      entity_id: entity.entity_id,
      entity_label: entity.entity_label,
      user_role: entity.user_role ?? '',
      primary_entity: entity.primary_entity === 'Y' ? 'Y' : 'N',
    })),
    ...profileBasketsOf(
      user.id,
      stored.groups.map((group) => ({ id: group.id, groupId: group.group_id, groupDesc: group.group_desc })),
      stored.baskets,
    ),
    passwordRules: { minLength: settings.passwordMinLength },
    canModifyPassword: user.authentication === 'standard',
    privileges: isRoot(actor) ? ['ALL_PRIVILEGES'] : stored.groups.flatMap((group) => group.privileges),
    lockAdvancedPrivileges: true,
    nbFollowedResources: stored.followedResources,
  }
}

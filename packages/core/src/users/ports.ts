import type { CurrentUserProfile, UsersResponse } from '../api/user-schemas.js'
import type { ProfileBaskets } from '../baskets/ports.js'

/** A user of `GET /rest/users`. */
export type UserListItem = UsersResponse['users'][number]

/** What the profile reads of the caller beyond the actor: the stored rows 20.10 shows. */
export interface StoredProfile {
  readonly user: Pick<CurrentUserProfile, 'id' | 'user_id' | 'firstname' | 'lastname' | 'mail' | 'status' | 'mode'> & {
    /** How the user signs in (`standard`, `ldap`, `oidc`): only `standard` users change their password here. */
    readonly authentication: string
  }
  /** The user's groups by serial id, each with its indexing parameters as stored and its privileges. */
  readonly groups: readonly {
    readonly id: number
    readonly can_index: boolean
    readonly group_id: string
    readonly group_desc: string | null
    readonly indexation_parameters: Record<string, unknown>
    readonly role: string | null
    readonly maarch_comment: string | null
    readonly privileges: readonly string[]
  }[]
  readonly entities: readonly {
    readonly id: number
    readonly entity_id: string
    readonly entity_label: string
    readonly user_role: string | null
    readonly primary_entity: string
  }[]
  readonly followedResources: number
  /** The user's baskets, lent and assigned ones (absent: none). */
  readonly baskets?: ProfileBaskets
}

/** Users, as the directory reads list them (not the authentication's user repository). */
export interface UserDirectory {
  /**
   * Users not deleted: every one when `entities` is null, else those of these entity codes and those with no
   * entity at all (20.10's rule for non-root administrators), by id.
   */
  list(entities: readonly string[] | null): Promise<UserListItem[]>
  /** The profile rows of a user, or null when the user is gone. */
  profile(userId: number): Promise<StoredProfile | null>
}

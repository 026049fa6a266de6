/** How a user account works (reference users.mode). Root modes skip every perimeter. */
export type UserMode = 'standard' | 'rest' | 'root_visible' | 'root_invisible'

/** A group the actor belongs to, with what it grants. */
export interface ActorGroup {
  readonly id: number
  readonly groupId: string
  readonly canIndex: boolean
  /** Security clause over res_view_letterbox (perimeter language, macros allowed); null when none. */
  readonly securityClause: string | null
  /** Entities (entity_id) and keywords (ALL_ENTITIES, …) the group may index for. */
  readonly indexingEntities: readonly string[]
  readonly indexingKeywords: readonly string[]
  /** May read the digital-safe journal of the safes the actor is positioned under (absent: yes, as before the right existed). */
  readonly digitalSafe?: boolean
  /** Maarch service ids the group grants (`create_contacts`, `add_links`, …); absent: none. */
  readonly privileges?: readonly string[]
}

/** An entity membership of the actor. */
export interface ActorEntity {
  readonly id: number
  readonly entityId: string
  readonly primary: boolean
}

/** The authenticated user on whose behalf a use case runs. Every use case takes one first. */
export interface Actor {
  readonly id: number
  readonly login: string
  readonly firstname: string | null
  readonly lastname: string | null
  readonly email: string | null
  readonly mode: UserMode
  readonly entities: readonly ActorEntity[]
  readonly groups: readonly ActorGroup[]
}

/** True for root users, whose perimeter is every record. */
export function isRoot(actor: Pick<Actor, 'mode'>): boolean {
  return actor.mode === 'root_visible' || actor.mode === 'root_invisible'
}

/** The actor's primary entity, or its first entity when none is flagged primary. */
export function primaryEntityOf(actor: Pick<Actor, 'entities'>): ActorEntity | null {
  return actor.entities.find((e) => e.primary) ?? actor.entities[0] ?? null
}

/** A readable name for logs and journals. */
export function displayName(actor: Pick<Actor, 'firstname' | 'lastname' | 'login'>): string {
  const name = [actor.firstname, actor.lastname].filter(Boolean).join(' ')
  return name || actor.login
}

import type { Actor } from '../actors/actor.js'

/** Storage side of the letters' locks (`res_letterbox.locker_user_id`, `locker_time`). */
export interface LocksStore {
  /** Locks the letters for the actor until `seconds` from now (renewing the actor's own lock). */
  lock(actor: Actor, resIds: readonly number[], seconds: number): Promise<void>
  /** Clears the actor's and the expired locks of the letters; another's live lock stays (checked in the write itself). */
  unlock(actor: Actor, resIds: readonly number[]): Promise<void>
  /** "Firstname Lastname" of each user, in the order given. */
  userLabels(userIds: readonly number[]): Promise<string[]>
}

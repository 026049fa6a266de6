import type { Actor } from '../actors/actor.js'

/**
 * Which records an actor may access (the perimeter of their groups), asked by the use cases that address
 * records by id. Storage answers from the database; an id that names no record is never allowed.
 */
export interface RecordPerimeter {
  /** True when the record exists and the actor may access it. */
  allows(actor: Actor, resId: number): Promise<boolean>
  /** The ids among `resIds` that exist and that the actor may access (one question, whatever the count). */
  allowedAmong(actor: Actor, resIds: readonly number[]): Promise<ReadonlySet<number>>
}

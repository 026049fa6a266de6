import type { Actor } from '../actors/actor.js'
import type { MailroomServices } from './mailroom-services.js'

/** A group of use cases with their first parameter (the actor) already given. */
export type BoundServices<T> = {
  [K in keyof T]: T[K] extends (actor: Actor, ...args: infer A) => infer R ? (...args: A) => R : T[K]
}

/** Every use case of Mailroom acting on behalf of one user: what `mailroom.as(user)` returns. */
export interface ActingMailroom {
  readonly actor: Actor
  readonly entities: BoundServices<MailroomServices['entities']>
  readonly records: BoundServices<MailroomServices['records']>
  readonly search: BoundServices<MailroomServices['search']>
  readonly criteriaSearch: BoundServices<MailroomServices['criteriaSearch']>
  readonly content: BoundServices<MailroomServices['content']>
  readonly status: BoundServices<MailroomServices['status']>
  readonly journal: BoundServices<MailroomServices['journal']>
  readonly reference: BoundServices<MailroomServices['reference']>
}

function bind<T extends object>(group: T, actor: Actor): BoundServices<T> {
  const bound: Record<string, unknown> = {}
  for (const [name, value] of Object.entries(group)) {
    bound[name] =
      typeof value === 'function'
        ? (...args: unknown[]) => (value as (...a: unknown[]) => unknown).call(group, actor, ...args)
        : value
  }
  return bound as BoundServices<T>
}

/** Binds every use case of `services` to `actor`, so an embedding service need not pass it on each call. */
export function actAs(services: MailroomServices, actor: Actor): ActingMailroom {
  return {
    actor,
    entities: bind(services.entities, actor),
    records: bind(services.records, actor),
    search: bind(services.search, actor),
    criteriaSearch: bind(services.criteriaSearch, actor),
    content: bind(services.content, actor),
    status: bind(services.status, actor),
    journal: bind(services.journal, actor),
    reference: bind(services.reference, actor),
  }
}

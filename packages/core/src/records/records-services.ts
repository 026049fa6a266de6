import type { Actor } from '../actors/actor.js'
import { type CreateRecordDependencies, createRecord } from './create-record.js'

/** Use cases of the records capability, as adapters call them. */
export interface RecordsServices {
  /**
   * POST /rest/resources (current or earlier form, told apart by the body). Resolves to the new record's
   * id; rejects with a DomainError (400 validation, 403 `Service forbidden`, 500 `[ResController create] …`).
   */
  create(actor: Actor, body: unknown): Promise<{ resId: number }>
}

/** The records use cases over their ports (storage implements them, the composition root wires them). */
export function createRecordsUseCases(deps: CreateRecordDependencies): RecordsServices {
  return { create: (actor, body) => createRecord(deps, actor, body) }
}

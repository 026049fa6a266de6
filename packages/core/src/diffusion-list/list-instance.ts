import type { Actor } from '../actors/actor.js'
import { fail } from '../errors/domain-error.js'
import type { RecordPerimeter } from '../perimeter/ports.js'
import { databaseIdOf } from '../request-values/database-id.js'

/** One entry of a record's diffusion list as `GET /rest/resources/{resId}/listInstance` answers it (20.10's shape). */
export interface ListInstanceItem {
  readonly listinstance_id: number
  readonly res_id: number
  readonly sequence: number
  /** The user's login or the entity's entity_id. */
  readonly item_id: string
  readonly item_type: 'user_id' | 'entity_id'
  /** dest, cc, … */
  readonly item_mode: string
  readonly added_by_user: number | null
  readonly viewed: number | null
  readonly difflist_type: string
  readonly process_date: string | null
  readonly process_comment: string | null
  readonly signatory: boolean
  readonly requested_signature: boolean
  readonly delegate: number | null
  /** The user's or entity's serial id. */
  readonly itemSerialId: number
  /** A user's name, an entity's label. */
  readonly labelToDisplay: string
  /** A user's primary entity label; empty for an entity. */
  readonly descriptionToDisplay: string
}

/** Body of `GET /rest/resources/{resId}/listInstance`. */
export interface ListInstance {
  readonly listInstance: readonly ListInstanceItem[]
  /** Whether the record's diffusion list was replaced before (20.10: `listinstance_history_details` has its items). */
  readonly hasHistory: boolean
}

/** Use case of the diffusion list read. */
export interface DiffusionListServices {
  /** The diffusion list (difflist_type entity_id) of a record in the actor's perimeter. */
  read(actor: Actor, resId: string | undefined): Promise<ListInstance>
}

/** The resId of the diffusion list read: anything but a record id is "out of perimeter", as 20.10 answers. */
export function parseListInstanceResId(text: string | undefined): number {
  return databaseIdOf(text, 'bigint') ?? fail('OUT_OF_PERIMETER')
}

/** Storage side of the diffusion list read. */
export interface DiffusionListStore {
  /** The record's diffusion list (listinstance rows of difflist_type `entity_id`), in the order they were written. */
  diffusionListOf(resId: number): Promise<ListInstanceItem[]>
  /** Whether an earlier diffusion list of the record was kept (an item of difflist_type `entity_id` in its history). */
  hasEarlierLists(resId: number): Promise<boolean>
}

/** What the diffusion list read needs from the outside. */
export interface DiffusionListDependencies {
  readonly lists: DiffusionListStore
  readonly perimeter: RecordPerimeter
}

/** `GET /rest/resources/{resId}/listInstance`: the id, the perimeter (20.10 answers 403 for both), the list. */
export async function readDiffusionList(
  deps: DiffusionListDependencies,
  actor: Actor,
  resIdText: string | undefined,
): Promise<ListInstance> {
  const resId = parseListInstanceResId(resIdText)
  if (!(await deps.perimeter.allows(actor, resId))) fail('OUT_OF_PERIMETER')
  const [listInstance, hasHistory] = await Promise.all([
    deps.lists.diffusionListOf(resId),
    deps.lists.hasEarlierLists(resId),
  ])
  return { listInstance, hasHistory }
}

/** The diffusion list use case over its ports (storage implements them, the composition root wires them). */
export function createDiffusionListUseCases(deps: DiffusionListDependencies): DiffusionListServices {
  return { read: (actor, resId) => readDiffusionList(deps, actor, resId) }
}

import type { Actor } from '../actors/actor.js'
import type { RecordHistory } from './record-history.js'

/** Facts about the request that the history records beside the actor. */
export interface StatusUpdateMeta {
  /** The caller's address (history.remote_ip); truncated to the column's 64 characters. */
  readonly remoteIp?: string
}

/** Body of a successful status update. */
export interface StatusUpdateResult {
  readonly success: string
}

/** Use cases of the status capability, as adapters call them. */
export interface StatusServices {
  /**
   * `PUT /rest/res/resource/status` (both variants): checks the body, the status and every listed record
   * first, then changes them all and writes one history row each in one transaction, or changes none.
   */
  update(actor: Actor, body: unknown, meta?: StatusUpdateMeta): Promise<StatusUpdateResult>
  /** `GET /rest/resources/{resId}/history`: the record's events newest first, perimeter-checked. */
  history(actor: Actor, resId: string): Promise<RecordHistory>
}

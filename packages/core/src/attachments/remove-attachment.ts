import type { Actor } from '../actors/actor.js'
import { hasPrivilege } from '../actors/privileges.js'
import type { ContentReadMeta } from '../content/content-services.js'
import { fail } from '../errors/domain-error.js'
import type { HistoryRow } from '../history/history-row.js'
import { databaseIdOf } from '../request-values/database-id.js'

/** Attachment types a removal refuses (20.10: they belong to the records management exchange). */
const RECORD_MANAGEMENT_TYPES = new Set(['acknowledgement_record_management', 'reply_record_management'])

/** The attachment `DELETE /rest/attachments/{id}` addresses, as storage found (and locked) it. */
export interface AttachmentToRemove {
  readonly resId: number
  readonly resIdMaster: number
  /** The original version when this one is a later version; null for an original. */
  readonly originId: number | null
  readonly typist: number
  readonly status: string
  readonly type: string
  readonly title: string | null
}

/**
 * The `{id}` of `DELETE /rest/attachments/{id}`: an id, or null for an integer that names no attachment (negative,
 * beyond any id: 20.10 looks it up and finds none). Anything else is 400 `Route id must be an integer val`.
 */
export function parseAttachmentRemovalId(text: string | undefined): number | null {
  if (text === undefined || !/^-?[0-9]+$/.test(text) || /^-?0+$/.test(text)) fail('ATTACHMENT_ROUTE_ID_INVALID')
  return databaseIdOf(text, 'bigint')
}

/**
 * Who may remove an attachment, in 20.10's order: it must exist and not be removed already, not be a records
 * management one, its record must be in the caller's perimeter (403 `Document out of perimeter`), and the caller
 * must be its typist or hold `manage_attachments` (403 `Attachment out of perimeter`). 20.10 also lets the
 * signatory of a record in her signature book through; Mailroom has no signature book.
 */
export function checkAttachmentRemoval(
  actor: Actor,
  found: AttachmentToRemove | null,
  masterInPerimeter: boolean,
): asserts found is AttachmentToRemove {
  if (found === null || found.status === 'DEL') fail('ATTACHMENT_DOES_NOT_EXIST')
  if (RECORD_MANAGEMENT_TYPES.has(found.type)) fail('ATTACHMENT_RECORD_MANAGEMENT')
  if (!masterInPerimeter) fail('OUT_OF_PERIMETER')
  if (found.typist !== actor.id && !hasPrivilege(actor, 'manage_attachments')) fail('ATTACHMENT_NOT_MANAGEABLE')
}

/** The original of the versions a removal takes away: 20.10 removes the original and every version alike. */
export function removedVersionsRoot(found: AttachmentToRemove): number {
  return found.originId ?? found.resId
}

/** The two history rows of a removal (20.10's): on the attachment and on its record, naming the title. */
export function attachmentRemovalHistory(found: AttachmentToRemove) {
  const info = `Pièce-jointe supprimée : ${found.title ?? ''}`
  const row = { eventType: 'DEL', eventId: 'attachmentSuppression', module: 'attachment', info }
  return [
    { ...row, tableName: 'res_attachments', recordId: found.resId },
    { ...row, tableName: 'res_letterbox', recordId: found.resIdMaster },
  ] as const
}

/** What a removal writes once core's check let it through: the versions' status and the history rows. */
export interface AttachmentRemoval {
  /** The original whose versions (it included) become DEL. */
  readonly root: number
  readonly history: readonly HistoryRow[]
}

/** Storage side of `DELETE /rest/attachments/{id}`. */
export interface AttachmentRemovalStore {
  /**
   * One transaction: locks the attachment `id` names (null: none), asks the perimeter whether its record is the
   * actor's, hands both to `check` (which refuses by throwing), then sets DEL on the original `root` and its
   * versions not removed yet and writes the history rows. A refusal writes nothing.
   */
  remove(
    actor: Actor,
    id: number | null,
    check: (found: AttachmentToRemove | null, masterInPerimeter: boolean) => AttachmentRemoval,
    meta: ContentReadMeta,
  ): Promise<void>
}

/**
 * `DELETE /rest/attachments/{id}`: the id, then in the store's transaction 20.10's checks
 * ({@link checkAttachmentRemoval}) on the locked row, then the original and every version alike become DEL with
 * 20.10's two history rows. Files stay where they are, as in 20.10 (the digital safe keeps what it received).
 */
export async function removeAttachment(
  store: AttachmentRemovalStore,
  actor: Actor,
  idText: string | undefined,
  meta: ContentReadMeta = {},
): Promise<void> {
  const id = parseAttachmentRemovalId(idText)
  await store.remove(
    actor,
    id,
    (found, masterInPerimeter) => {
      checkAttachmentRemoval(actor, found, masterInPerimeter)
      return { root: removedVersionsRoot(found), history: attachmentRemovalHistory(found) }
    },
    meta,
  )
}

import { type Actor, isRoot } from '../actors/actor.js'
import { fail } from '../errors/domain-error.js'
import type { SafeDirectory } from './safe-directory.js'

/**
 * Who may look into a safe's journal (its events, or whether its chain verifies): JOURNAL_SAFE_NOT_FOUND when
 * no top-level entity owns the safe; a non-root actor needs an entity under it (JOURNAL_NOT_POSITIONED) and a
 * group with the digital-safe right (JOURNAL_NOT_ALLOWED). Root users look into every safe.
 */
export function assertJournalAccess(actor: Actor, directory: SafeDirectory, safe: string): void {
  if (!directory.hasSafe(safe)) fail('JOURNAL_SAFE_NOT_FOUND', { owner: safe })
  if (isRoot(actor)) return
  if (
    !directory.isPositionedInSafe(
      actor.entities.map((entity) => entity.entityId),
      safe,
    )
  )
    fail('JOURNAL_NOT_POSITIONED')
  if (!actor.groups.some((group) => group.digitalSafe !== false)) fail('JOURNAL_NOT_ALLOWED')
}

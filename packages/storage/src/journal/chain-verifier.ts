import type { ChainVerificationOptions, SafeVerification } from '@mailroom/core'
import type { Kysely } from 'kysely'
import type { Database } from '../database/schema.js'
import { type JournalFiles, type VerifiedPoint, verifyJournal } from './verify-journal.js'

/** The chain verification of the HTTP endpoint: resumes from the last verified point, one walk per safe at a time. */
export interface ChainVerifier {
  verify(safe: string, options: ChainVerificationOptions): Promise<SafeVerification>
}

/**
 * Verifies a safe's chain from the last point an earlier call found intact (`journal_verified_points`), so a
 * call costs what was added since, plus the re-check of that point's event; `full` walks from the start.
 * A chain found intact moves the point to its head. Callers asking about a safe while a walk of it is under
 * way share that walk's answer, so any number of callers cost one walk at a time per safe; a full walk asked
 * during an incremental one waits for it, then walks (an incremental answer does not answer it).
 * Deposited files are not re-hashed (`mailroom journal verify` does that, over the whole chain, every time).
 */
export function createChainVerifier(context: JournalFiles): ChainVerifier {
  const db = context.db
  const inFlight = new Map<string, { readonly full: boolean; readonly answer: Promise<SafeVerification> }>()

  async function walk(safe: string, full: boolean): Promise<SafeVerification> {
    const point = full ? undefined : await verifiedPoint(db, safe)
    const verification = await verifyJournal(context, safe, {
      checkFiles: false,
      ...(point === undefined ? {} : { resumeFrom: point }),
    })
    const result = verification.safes[0]!
    if (result.ok && result.head !== null) await recordVerifiedPoint(db, safe, result.head, full)
    return result
  }

  return {
    async verify(safe, options) {
      for (;;) {
        const current = inFlight.get(safe)
        if (current === undefined) break
        if (current.full || !options.full) return current.answer
        await current.answer.catch(() => undefined)
      }
      const answer = walk(safe, options.full).finally(() => inFlight.delete(safe))
      inFlight.set(safe, { full: options.full, answer })
      return answer
    },
  }
}

async function verifiedPoint(db: Kysely<Database>, safe: string): Promise<VerifiedPoint | undefined> {
  return db
    .selectFrom('journal_verified_points')
    .select(['sequence', 'hash'])
    .where('safe', '=', safe)
    .executeTakeFirst()
}

/**
 * Moves the safe's verified point to `head`: forward only after an incremental walk (another server may have
 * gone further meanwhile; nothing is written when nothing was added), unconditionally after a full one, which
 * vouches for the whole chain.
 */
async function recordVerifiedPoint(
  db: Kysely<Database>,
  safe: string,
  head: VerifiedPoint,
  full: boolean,
): Promise<void> {
  await db
    .insertInto('journal_verified_points')
    .values({ safe, sequence: head.sequence, hash: head.hash })
    .onConflict((conflict) => {
      const update = conflict.column('safe').doUpdateSet((eb) => ({
        sequence: eb.ref('excluded.sequence'),
        hash: eb.ref('excluded.hash'),
        verified_at: eb.fn('now', []),
      }))
      return full ? update : update.where('journal_verified_points.sequence', '<', head.sequence)
    })
    .execute()
}

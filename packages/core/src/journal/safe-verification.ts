import { type Actor, isRoot } from '../actors/actor.js'
import { fail } from '../errors/domain-error.js'
import { assertJournalAccess } from './journal-access.js'
import type { RawJournalQuery } from './journal-query.js'
import type { SafeDirectory } from './safe-directory.js'
import type { ChainBreakReason } from './verify-chain.js'

/**
 * Why a safe's journal fails verification: a chain break (core's reasons), a file, an unknown safe, or events
 * written long ago and still not linked into the chain ('unsealed').
 */
export type JournalBreakReason = ChainBreakReason | 'altered-file' | 'unknown-safe' | 'unsealed'

/** The first break found in a safe. */
export interface JournalBreak {
  readonly reason: JournalBreakReason
  /** Sequence and eventId of the offending event (null when the break is past the end of the chain). */
  readonly sequence: number | null
  readonly eventId: string | null
  /** The record whose stored file no longer matches (altered-file only). */
  readonly resId?: string
  /** One English sentence for operators. */
  readonly detail: string
}

/** Outcome of verifying one safe's journal. */
export interface SafeVerification {
  readonly safe: string
  readonly ok: boolean
  /** Events walked (up to the break). */
  readonly events: number
  /** Stored files whose fingerprint was checked against deposit events (0 when files were not checked). */
  readonly files: number
  /** The journal_heads row (null when the safe has none). */
  readonly head: { readonly sequence: number; readonly hash: string } | null
  /** Events of the safe written but not yet linked into the chain, counted after the verifier's seal. */
  readonly pending: number
  readonly break?: JournalBreak
  /**
   * The sequence of the last event an earlier verification found intact, when this one resumed there: that
   * event was re-checked (its hash, its link to the event before it, the hash recorded for it) and the walk
   * went on after it; `events` still counts the whole chain up to the break. Absent when the whole chain was
   * walked.
   */
  readonly resumedAfter?: number
}

/** How a verification walks the chain. */
export interface ChainVerificationOptions {
  /** Walk the whole chain again, not only what was added since the last verified point (operators only). */
  readonly full: boolean
}

/** The journal verifier as the use case needs it (storage implements it over the database). */
export interface SafeChainVerifier {
  /** The safes of the current entity tree. */
  loadSafeDirectory(): Promise<SafeDirectory>
  /**
   * Seals what is pending, then walks the safe's chain up to its head (events only, no stored file): from
   * its last verified point, or from its start with `full`.
   */
  verifySafeChain(safe: string, options: ChainVerificationOptions): Promise<SafeVerification>
}

/**
 * The query of the chain verification: `full` (`true` or `false`, default false; empty counts as absent, a
 * repeated one is refused). Unknown parameters are ignored, as on `/events`.
 */
export function parseChainVerificationQuery(raw: RawJournalQuery): ChainVerificationOptions {
  const value = raw.full
  if (typeof value !== 'string' && value !== undefined && value.length > 1)
    fail('JOURNAL_REPEATED_PARAMETER', { name: 'full' })
  const text = typeof value === 'string' ? value : value?.[0]
  if (text === undefined || text === '' || text === 'false') return { full: false }
  if (text === 'true') return { full: true }
  return fail('JOURNAL_INVALID_FULL')
}

/**
 * Whether a safe's hash chain verifies, on behalf of an actor allowed to read that safe's journal (the same
 * checks and errors as the journal read: {@link assertJournalAccess}), then the query: a full walk is for
 * root users only, since it costs time in proportion to the whole chain (JOURNAL_FULL_VERIFICATION_ROOT_ONLY).
 */
export async function verifySafeChain(
  verifier: SafeChainVerifier,
  actor: Actor,
  safe: string,
  rawQuery: RawJournalQuery = {},
): Promise<SafeVerification> {
  assertJournalAccess(actor, await verifier.loadSafeDirectory(), safe)
  const options = parseChainVerificationQuery(rawQuery)
  if (options.full && !isRoot(actor)) fail('JOURNAL_FULL_VERIFICATION_ROOT_ONLY')
  return verifier.verifySafeChain(safe, options)
}

import type { Actor } from '../actors/actor.js'
import { assertJournalAccess } from './journal-access.js'
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
}

/** The journal verifier as the use case needs it (storage implements it over the database). */
export interface SafeChainVerifier {
  /** The safes of the current entity tree. */
  loadSafeDirectory(): Promise<SafeDirectory>
  /** Seals what is pending, then walks the safe's chain up to its head (events only, no stored file). */
  verifySafeChain(safe: string): Promise<SafeVerification>
}

/**
 * Whether a safe's hash chain verifies, on behalf of an actor allowed to read that safe's journal (the same
 * checks and errors as the journal read: {@link assertJournalAccess}).
 */
export async function verifySafeChain(
  verifier: SafeChainVerifier,
  actor: Actor,
  safe: string,
): Promise<SafeVerification> {
  assertJournalAccess(actor, await verifier.loadSafeDirectory(), safe)
  return verifier.verifySafeChain(safe)
}

import type { Actor } from '../actors/actor.js'
import type { JournalEnvelopeHead } from './journal-envelope.js'
import type { RawJournalQuery } from './journal-query.js'
import type { LifeCycleEvent } from './life-cycle-event.js'
import type { SafeVerification } from './safe-verification.js'

/**
 * A journal read that passed every check (safe, position, query): the envelope head and the life-cycle
 * events, fetched page by page while they are consumed so that any journal size streams in constant memory.
 * Iterate `events` once; an adapter that stops early (client gone) simply stops iterating.
 */
export interface JournalReading {
  readonly head: JournalEnvelopeHead
  readonly events: AsyncIterable<LifeCycleEvent>
}

/** Use cases of the journal capability, as adapters call them. */
export interface JournalServices {
  /**
   * `GET /digitalSafe/digitalSafe/{owner}/events` on behalf of an authenticated actor (the adapter turns the
   * SERVICE-AUTH cookie into the actor and any failure into JOURNAL_UNAUTHENTICATED). Fails with
   * JOURNAL_SAFE_NOT_FOUND (no top-level entity owns `owner`), JOURNAL_NOT_POSITIONED (a non-root actor with
   * no entity under that safe; root users read every safe), JOURNAL_NOT_ALLOWED (a non-root actor none of whose
   * groups has the digital-safe right), then the query errors of parseJournalQuery and
   * JOURNAL_INVALID_CURSOR. Before answering it journals the read as an `organization/journal` event of the
   * safe; the events returned are those appended before that read event.
   */
  readEvents(actor: Actor, owner: string, rawQuery: RawJournalQuery): Promise<JournalReading>
  /**
   * Whether the hash chain of the safe `owner` verifies (a Mailroom extension: `GET
   * /rest/digitalSafe/{owner}/verification`): committed events are sealed first, then the chain is walked up
   * to the safe's head from the last point an earlier call verified (that event re-checked), or from the
   * start with `full=true` (root users only: JOURNAL_FULL_VERIFICATION_ROOT_ONLY; JOURNAL_INVALID_FULL for
   * another value). Same permission and errors as {@link readEvents}, before any query parameter; not
   * journalled. Deposited files are not re-hashed here (`mailroom journal verify` does that, over the whole
   * chain).
   */
  verifyChain(actor: Actor, owner: string, rawQuery?: RawJournalQuery): Promise<SafeVerification>
}

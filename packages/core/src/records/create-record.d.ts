import type { Actor } from '../actors/actor.js';
import type { Clock } from '../auth/ports.js';
import type { MimeTypeSniffer } from '../content/ports.js';
import type { RecordsRepository } from './ports.js';
/** What record creation needs from the outside. */
export interface CreateRecordDependencies {
    readonly records: RecordsRepository;
    readonly sniffer: MimeTypeSniffer;
    readonly clock: Clock;
}
/**
 * POST /rest/resources, both forms. Order: the right to index (403 `Service forbidden`), the required
 * parameters (400 `Data is not set or empty`), the earlier form's translation, then the reference's checks
 * and the atomic store. Any failure that is not an expected one becomes a 500 whose message starts with
 * `[ResController create]` and says nothing of its cause (which stays in the error's `cause` for the log).
 */
export declare function createRecord(deps: CreateRecordDependencies, actor: Actor, input: unknown): Promise<{
    resId: number;
}>;

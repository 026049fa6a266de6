import { type Actor } from '../actors/actor.js';
import type { NewRecord } from './new-record.js';
import type { RecordReferenceFacts } from './ports.js';
/** The file part of a body after decoding and sniffing (done before the checks, which are synchronous). */
export interface InspectedFile {
    /** `format` as sent (any type: the check reports a bad one at its place in the order). */
    readonly format: unknown;
    /** Decoded bytes; null when `encodedFile` is not valid base64. */
    readonly bytes: Uint8Array | null;
    /** MIME type sniffed from the bytes; null when there are no bytes. */
    readonly mimeType: string | null;
}
/** Everything the ordered checks read. */
export interface CreateCheckInput {
    readonly actor: Actor;
    readonly body: Readonly<Record<string, unknown>>;
    readonly facts: RecordReferenceFacts;
    /** Null when the body has no `encodedFile`. */
    readonly file: InspectedFile | null;
    readonly now: Date;
}
/**
 * Runs the creation checks in the reference's order (reference §2.1 step 3) and returns the record to
 * store. Presence of the required parameters and the actor's right to index are checked before.
 * Differences from the reference, on purpose: `typist` must be an existing user (the reference stored any
 * value); custom-field values are checked for every user, not only for non-web-service ones; a diffusion
 * item is looked up by its `type` (the reference looked `dest` items up among users whatever their type).
 */
export declare function checkCreateBody({ actor, body, facts, file, now }: CreateCheckInput): NewRecord;

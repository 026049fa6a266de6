import type { EarlierReferenceFacts, EarlierReferenceQuery } from './ports.js';
/**
 * True for a body of the earlier create form (interface "Earlier creation variant"): it names `type_id`
 * or `category_id` and no `modelId`.
 */
export declare function isEarlierVariant(body: Readonly<Record<string, unknown>>): boolean;
/**
 * Checks what the earlier form requires and names what must be looked up to translate it: the category
 * (→ its indexing model) and the entity codes of `destination` / `initiator`.
 */
export declare function earlierReferences(body: Readonly<Record<string, unknown>>): EarlierReferenceQuery;
/**
 * Rewrites an earlier-form body as a current one, so both forms run the same use case: `category_id`
 * becomes the model of that category, `type_id` the doctype, entity codes their integer ids, record-table
 * columns their current names, contact columns senders and recipients. A client `alt_identifier` is
 * dropped (the reference discards it too); `typist` is kept only when it is an integer id or a login.
 */
export declare function translateEarlierBody(body: Readonly<Record<string, unknown>>, facts: EarlierReferenceFacts): Record<string, unknown>;

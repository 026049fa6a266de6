import { type Actor } from '../actors/actor.js';
import type { MacroRef } from '../search/ast.js';
import { type PerimeterEntity } from '../search/expand-macros.js';
/** The indexing keywords of a group (reference §7, IndexingController::KEYWORDS) as perimeter macros. */
export declare const INDEXING_KEYWORD_MACROS: Readonly<Record<string, MacroRef>>;
/**
 * The entity codes an actor may index records for: over the groups that can index, the entities listed in
 * their indexation parameters (codes, or integer ids as some installations store them) plus the entities
 * their keywords stand for, expanded against the entity tree with the same macros as group clauses.
 * Null means "any entity" (root users).
 */
export declare function indexingEntityCodes(actor: Actor, tree: readonly PerimeterEntity[]): ReadonlySet<string> | null;

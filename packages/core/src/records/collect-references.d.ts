import { type Actor } from '../actors/actor.js';
import type { RecordReferenceQuery } from './ports.js';
/**
 * Every id a create body names, read leniently (malformed values are skipped: the ordered checks report
 * them), so that one lookup answers all existence checks.
 */
export declare function collectReferences(actor: Actor, body: Readonly<Record<string, unknown>>): RecordReferenceQuery;

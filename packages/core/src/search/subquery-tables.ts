/**
 * The tables a clause's sub-selects may read (`res_id in (select res_id from listinstance where …)`), with the
 * columns each may name: the forms 20.10's basket clauses are written in (docs/architecture.md, "Sub-selects in
 * clauses"). A table or column that is not here is refused, naming it.
 *
 * A sub-select can only narrow the records its clause is ANDed with, never reveal others:
 * - over a table of records' facts (`record` is its column holding the record), the sub-select must answer for
 *   the record the clause is tested on: the left of `IN` is the record's own `res_id` (or a row starting with it)
 *   and the first selected column is the table's record column. `5 in (select item_id from listinstance where
 *   res_id = 42)` would say something about record 42 to a caller who may not see it: refused.
 * - the selected columns are NOT NULL, so that a `NOT IN` cannot turn on a NULL of a row the caller may not see.
 * - its condition may not compute a value that can fail on a row (storage refuses it when compiling): an error
 *   raised on another record's row would tell the caller that the row exists.
 * Mailroom's tables keep 20.10's names and columns, so a clause's names are the tables' own; 20.10 columns that
 * Mailroom does not keep (the receipts' files) are refused by name.
 */

/** A table a sub-select may read. */
export interface SubqueryTable {
  /** The column holding the record a row is about, or null for a table of the organisation. */
  readonly record: string | null
  /** Whether a caller's search clause may read it, or only an administrator's clause (baskets, groups). */
  readonly callers: boolean
  /** The columns a sub-select may name, in its condition, ordering and grouping. */
  readonly columns: readonly string[]
  /** The columns it may select (NOT NULL ones). */
  readonly selectable: readonly string[]
}

/** The allow-list of sub-select tables. */
export const SUBQUERY_TABLES = {
  /** Diffusion lists and visa circuits: shown to whoever may see the record. */
  listinstance: {
    record: 'res_id',
    callers: true,
    columns: [
      'listinstance_id',
      'res_id',
      'sequence',
      'item_id',
      'item_type',
      'item_mode',
      'added_by_user',
      'viewed',
      'difflist_type',
      'process_date',
      'process_comment',
      'signatory',
      'requested_signature',
      'delegate',
    ],
    selectable: ['res_id', 'item_id'],
  },
  /** Who marked a copy as read, in which basket: a user's own business, for basket clauses only. */
  res_mark_as_read: {
    record: 'res_id',
    callers: false,
    columns: ['res_id', 'user_id', 'basket_id'],
    selectable: ['res_id'],
  },
  /** Acknowledgement receipts sent for a record (without 20.10's file columns, which Mailroom does not keep). */
  acknowledgement_receipts: {
    record: 'res_id',
    callers: false,
    columns: ['id', 'res_id', 'type', 'format', 'user_id', 'contact_id', 'creation_date', 'send_date'],
    selectable: ['res_id'],
  },
  /** Which users belong to which entities (`user_id` is the user's serial id, as `dest_user` and `typist`). */
  users_entities: {
    record: null,
    callers: true,
    columns: ['user_id', 'entity_id', 'user_role', 'primary_entity'],
    selectable: ['user_id', 'entity_id'],
  },
} as const satisfies Record<string, SubqueryTable>

/** The name of a table a sub-select may read. */
export type SubqueryTableName = keyof typeof SUBQUERY_TABLES

/** Who wrote a clause, which decides the tables its sub-selects may read. */
export type ClauseAuthor = 'caller' | 'administrator'

/** The allow-listed table of `name` (lower case), or undefined. */
export function lookupSubqueryTable(name: string): SubqueryTableName | undefined {
  return Object.hasOwn(SUBQUERY_TABLES, name) ? (name as SubqueryTableName) : undefined
}

/** True when `table` has the column `name` (lower case). */
export function hasSubqueryColumn(table: SubqueryTableName, name: string): boolean {
  return (SUBQUERY_TABLES[table].columns as readonly string[]).includes(name)
}

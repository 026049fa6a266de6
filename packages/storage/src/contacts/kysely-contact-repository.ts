import type {
  ContactChange,
  ContactInsert,
  ContactListQuery,
  ContactPage,
  ContactRepository,
  ContactValues,
  ContactWithCreator,
} from '@mailroom/core'
import { type Expression, type Kysely, type SqlBool, sql } from 'kysely'
import type { Database } from '../database/schema.js'
import { contactFromRow, contactValueColumns } from './contact-columns.js'

/** The columns a search word may match (20.10: names and address). */
const SEARCHED_COLUMNS = [
  'firstname',
  'lastname',
  'company',
  'address_number',
  'address_street',
  'address_additional1',
  'address_additional2',
  'address_postcode',
  'address_town',
  'address_country',
] as const

/**
 * Accented letters and what they fold to, for `translate()`: the database compares folded text without the
 * unaccent extension, which embedded PGlite lacks. Core folds the search words the same way (NFD, marks removed).
 */
const ACCENTED_LOWER = 'àáâãäåāăąçćčďèéêëēėęěìíîïīįñńňòóôõöōőŕřśšşťţùúûüūůűųýÿźżž'
const PLAIN_LOWER = 'aaaaaaaaacccdeeeeeeeeiiiiiinnnooooooorrsssttuuuuuuuuyyzzz'
// lower() leaves non-ASCII letters alone under the C collation: capitals are folded here too.
const ACCENTED = ACCENTED_LOWER + ACCENTED_LOWER.toUpperCase()
const PLAIN = PLAIN_LOWER + PLAIN_LOWER

function folded(column: string) {
  return sql<string>`translate(lower(coalesce(${sql.ref(`c.${column}`)}, '')), ${ACCENTED}, ${PLAIN})`
}

/** A LIKE pattern matching `word` anywhere, its wildcards taken literally. */
function containing(word: string): string {
  return `%${word.replace(/[\\%_]/g, (c) => `\\${c}`)}%`
}

/** The history row of a contact's change, as 20.10 writes it (module `contact`). */
function historyRow(id: number, eventType: 'ADD' | 'UP', eventId: string, change: ContactChange) {
  return {
    table_name: 'contacts',
    record_id: String(id),
    event_type: eventType,
    user_id: change.userId,
    info: change.info,
    id_module: 'contact',
    remote_ip: null,
    event_id: eventId,
  }
}

/** Contacts in the database (table contacts, migration 0012). */
export class KyselyContactRepository implements ContactRepository {
  readonly #db: Kysely<Database>

  constructor(db: Kysely<Database>) {
    this.#db = db
  }

  #withCreator() {
    return this.#db
      .selectFrom('contacts as c')
      .leftJoin('users as u', 'u.id', 'c.creator')
      .selectAll('c')
      .select(sql<string>`trim(coalesce(u.firstname, '') || ' ' || coalesce(u.lastname, ''))`.as('creator_label'))
  }

  async list(query: ContactListQuery): Promise<ContactPage> {
    let select = this.#db.selectFrom('contacts as c').selectAll('c').select(sql<string>`count(*) over ()`.as('total'))
    for (const word of query.words) {
      const pattern = containing(word)
      select = select.where(({ or }) =>
        or(SEARCHED_COLUMNS.map((column) => sql<SqlBool>`${folded(column)} like ${pattern}`) as Expression<SqlBool>[]),
      )
    }
    if (query.orderBy !== null) select = select.orderBy(`c.${query.orderBy}`, query.order)
    const rows = await select.orderBy('c.id').limit(query.limit).offset(query.offset).execute()
    const ids = rows.map((row) => row.id)
    const used =
      ids.length === 0
        ? []
        : await this.#db
            .selectFrom('resource_contacts')
            .select('item_id')
            .distinct()
            .where('type', '=', 'contact')
            .where('item_id', 'in', ids)
            .execute()
    // An offset past the end finds no row to carry the total: count on its own then.
    const count = rows.length > 0 || query.offset === 0 ? Number(rows[0]?.total ?? 0) : await this.#count(query.words)
    return {
      contacts: rows.map(({ total: _total, ...row }) => contactFromRow(row)),
      count,
      usedIds: new Set(used.map((row) => row.item_id)),
    }
  }

  async #count(words: readonly string[]): Promise<number> {
    let select = this.#db.selectFrom('contacts as c').select(sql<string>`count(*)`.as('total'))
    for (const word of words) {
      const pattern = containing(word)
      select = select.where(({ or }) =>
        or(SEARCHED_COLUMNS.map((column) => sql<SqlBool>`${folded(column)} like ${pattern}`) as Expression<SqlBool>[]),
      )
    }
    return Number((await select.executeTakeFirstOrThrow()).total)
  }

  async findById(id: number): Promise<ContactWithCreator | null> {
    return this.#first(await this.#withCreator().where('c.id', '=', id).execute())
  }

  async findByEmail(email: string): Promise<ContactWithCreator | null> {
    const rows = await this.#withCreator()
      .where(sql`lower(c.email)`, '=', email.toLowerCase())
      .orderBy('c.id')
      .limit(1)
      .execute()
    return this.#first(rows)
  }

  async findByPhone(phoneDigits: string): Promise<ContactWithCreator | null> {
    const rows = await this.#withCreator()
      .where('c.phone', 'is not', null)
      .where(
        sql`case when ltrim(c.phone) like '+%' then '+' else '' end || regexp_replace(c.phone, '[^0-9]', '', 'g')`,
        '=',
        phoneDigits,
      )
      .orderBy('c.id')
      .limit(1)
      .execute()
    return this.#first(rows)
  }

  async insert(values: ContactValues, change: ContactChange, options: { uniqueMail: boolean }): Promise<ContactInsert> {
    return this.#db.transaction().execute(async (trx) => {
      if (options.uniqueMail && values.email !== null) {
        const email = values.email.toLowerCase()
        // Creates of one address wait for each other until commit: the second one sees the first one's row.
        await sql`select pg_advisory_xact_lock(hashtext(${`contacts.email:${email}`}))`.execute(trx)
        const existing = await trx
          .selectFrom('contacts')
          .select('id')
          .where(sql`lower(email)`, '=', email)
          .orderBy('id')
          .limit(1)
          .executeTakeFirst()
        if (existing) return { existingId: existing.id }
      }
      const row = await trx
        .insertInto('contacts')
        .values({ ...contactValueColumns(values), creator: change.userId, enabled: true })
        .returning('id')
        .executeTakeFirstOrThrow()
      await trx
        .insertInto('history')
        .values(historyRow(row.id, 'ADD', 'contactCreation', change))
        .execute()
      return { id: row.id }
    })
  }

  async replace(id: number, values: ContactValues, change: ContactChange): Promise<boolean> {
    return this.#db.transaction().execute(async (trx) => {
      const result = await trx
        .updateTable('contacts')
        .set({ ...contactValueColumns(values), modification_date: sql<Date>`now()` })
        .where('id', '=', id)
        .executeTakeFirst()
      if (Number(result.numUpdatedRows) === 0) return false
      await trx
        .insertInto('history')
        .values(historyRow(id, 'UP', 'contactModification', change))
        .execute()
      return true
    })
  }

  #first(
    rows: readonly ({ creator_label: string } & Parameters<typeof contactFromRow>[0])[],
  ): ContactWithCreator | null {
    const row = rows[0]
    if (!row) return null
    const { creator_label, ...contact } = row
    return { ...contactFromRow(contact), creatorLabel: creator_label }
  }
}

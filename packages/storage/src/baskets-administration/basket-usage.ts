import { type Kysely, sql } from 'kysely'
import type { Database } from '../database/schema.js'

/** A member's preference for a basket of one of her groups: shown or not, and its colour. */
export interface BasketPreference {
  readonly login: string
  readonly group: string
  readonly basket: string
  readonly display: boolean
  readonly color: string | null
}

/** A basket its owner lends to a colleague (20.10's `redirected_baskets`). */
export interface BasketLoan {
  readonly owner: string
  readonly actual: string
  readonly group: string
  readonly basket: string
}

/** A letter a user marked as read in a basket (`res_mark_as_read`). */
export interface MarkedAsRead {
  readonly resId: number
  readonly login: string
  readonly basket: string
}

/** What users did with their baskets, by login and group code (Mailroom's serial ids are looked up here). */
export interface BasketUsage {
  /** The users whose preferences and loans `preferences` and `loans` state whole (theirs not listed go). */
  readonly users: readonly string[]
  readonly preferences: readonly BasketPreference[]
  readonly loans: readonly BasketLoan[]
  /** Added to what is there (marks are never taken back in 20.10 but by the action that set them). */
  readonly markedAsRead: readonly MarkedAsRead[]
}

/** How many rows of each kind were written, and those naming a user, group or basket Mailroom does not have. */
export interface BasketUsageWritten {
  readonly preferences: number
  readonly loans: number
  readonly markedAsRead: number
  readonly unknown: readonly string[]
}

const CHUNK = 1000

/**
 * Writes users' basket preferences, lent baskets and marks as read in one transaction: the preferences and
 * loans of `users` become those given (logins and group codes turned into Mailroom's serial ids, which may
 * differ from the source's), the marks are added. A row naming a user, group or basket Mailroom does not have
 * is left out and named in `unknown`.
 */
export async function writeBasketUsage(db: Kysely<Database>, usage: BasketUsage): Promise<BasketUsageWritten> {
  return db.transaction().execute(async (trx) => {
    const [users, groups, baskets] = await Promise.all([
      trx
        .selectFrom('users')
        .select(['id', sql<string>`lower(user_id)`.as('login')])
        .execute(),
      trx.selectFrom('usergroups').select(['id', 'group_id']).execute(),
      trx.selectFrom('baskets').select('basket_id').execute(),
    ])
    const userId = new Map(users.map((u) => [u.login, u.id]))
    const groupId = new Map(groups.map((g) => [g.group_id, g.id]))
    const known = new Set(baskets.map((b) => b.basket_id))
    const unknown: string[] = []
    const resolve = (what: string, login: string, group: string | null, basket: string) => {
      const user = userId.get(login.toLowerCase())
      const serial = group === null ? 0 : groupId.get(group)
      if (user === undefined || serial === undefined || !known.has(basket)) {
        unknown.push(`${what} of ${login}${group === null ? '' : ` in ${group}`} for ${basket}`)
        return null
      }
      return { user, group: serial }
    }
    const owners = usage.users.flatMap((login) => {
      const id = userId.get(login.toLowerCase())
      return id === undefined ? [] : [id]
    })
    const preferences = usage.preferences.flatMap((p) => {
      const ids = resolve('preference', p.login, p.group, p.basket)
      return ids === null
        ? []
        : [
            {
              user_serial_id: ids.user,
              group_serial_id: ids.group,
              basket_id: p.basket,
              display: p.display,
              color: p.color,
            },
          ]
    })
    const loans = usage.loans.flatMap((l) => {
      const ids = resolve('loan', l.owner, l.group, l.basket)
      const actual = userId.get(l.actual.toLowerCase())
      if (ids !== null && actual === undefined)
        unknown.push(`loan of ${l.owner} in ${l.group} for ${l.basket} to ${l.actual}`)
      return ids === null || actual === undefined
        ? []
        : [{ owner_user_id: ids.user, actual_user_id: actual, group_id: ids.group, basket_id: l.basket }]
    })
    const marks = usage.markedAsRead.flatMap((m) => {
      const ids = resolve('mark as read', m.login, null, m.basket)
      return ids === null ? [] : [{ res_id: m.resId, user_id: ids.user, basket_id: m.basket }]
    })
    for (let i = 0; i < owners.length; i += CHUNK) {
      const some = owners.slice(i, i + CHUNK)
      await trx.deleteFrom('users_baskets_preferences').where('user_serial_id', 'in', some).execute()
      await trx.deleteFrom('redirected_baskets').where('owner_user_id', 'in', some).execute()
    }
    for (let i = 0; i < preferences.length; i += CHUNK)
      await trx
        .insertInto('users_baskets_preferences')
        .values(preferences.slice(i, i + CHUNK))
        .onConflict((c) =>
          c.columns(['user_serial_id', 'group_serial_id', 'basket_id']).doUpdateSet({
            display: (eb) => eb.ref('excluded.display'),
            color: (eb) => eb.ref('excluded.color'),
          }),
        )
        .execute()
    for (let i = 0; i < loans.length; i += CHUNK)
      await trx
        .insertInto('redirected_baskets')
        .values(loans.slice(i, i + CHUNK))
        .onConflict((c) =>
          c
            .columns(['owner_user_id', 'basket_id', 'group_id'])
            .doUpdateSet({ actual_user_id: (eb) => eb.ref('excluded.actual_user_id') }),
        )
        .execute()
    for (let i = 0; i < marks.length; i += CHUNK)
      await trx
        .insertInto('res_mark_as_read')
        .values(marks.slice(i, i + CHUNK))
        .onConflict((c) => c.doNothing())
        .execute()
    return { preferences: preferences.length, loans: loans.length, markedAsRead: marks.length, unknown }
  })
}

import { startTestServer, type TestServer } from '@mailroom/testing'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { importCollecting } from '../../test/import-helpers.js'
import { publisherFixtures } from '../../test/publisher-fixtures.js'
import { createPublisherSource } from '../../test/publisher-source.js'
import type { SourceDatabase } from '../../test/source-database.js'
import { type MaarchImportReport, type MaarchSource, openMaarchSource } from '../index.js'

/** Skipped, saying so once (vitest.config.ts), where this machine does not have the publisher's installation. */
const fixtures = publisherFixtures()
const MAARCH_FIXTURES = fixtures ?? ''

/** What the sample's users did with their baskets, added to it: a loan, a colour, a letter marked as read. */
const USAGE = `
update users_baskets_preferences set color = '#ff0000', display = false
  where user_serial_id = (select id from users where user_id = 'bbain') and basket_id = 'CopyMailBasket';
insert into redirected_baskets (actual_user_id, owner_user_id, basket_id, group_id)
  select (select id from users where user_id = 'ppetit'), u.id, 'MyBasket', g.id
  from users u, usergroups g where u.user_id = 'bbain' and g.group_id = 'AGENT';
insert into res_mark_as_read (res_id, user_id, basket_id) select 3, id, 'CopyMailBasket' from users where user_id = 'bbain';
insert into res_mark_as_read (res_id, user_id, basket_id) select 3, id, 'CopyMailBasket' from users where user_id = 'bbain';
`

describe.runIf(fixtures !== null)("the publisher's Maarch 20.10 sample installation's baskets and actions", () => {
  let s: TestServer
  let source: SourceDatabase
  let maarch: MaarchSource
  let report: MaarchImportReport

  beforeAll(async () => {
    source = await createPublisherSource(MAARCH_FIXTURES, USAGE)
    maarch = await openMaarchSource(source.url)
    s = await startTestServer({ mailroom: { demo: false } })
    report = await importCollecting(s.mailroom, {
      from: source.url,
      docservers: { root: `${MAARCH_FIXTURES}/docservers` },
      only: 'reference',
    })
  }, 180_000)
  afterAll(async () => {
    await maarch?.close()
    await s?.close()
    await source?.drop()
  })

  const count = async (table: string, where = 'true') =>
    Number((await maarch.rows<{ n: string }>(`select count(*) as n from ${table} where ${where}`))[0]?.n)
  const db = () => s.mailroom.db

  it('carries the 24 baskets, the 44 actions, and says so in the organisation lines', async () => {
    const lines = report.organisation?.lines.map((line) => line.split(' (')[0])
    expect(lines).toContain('actions: +44 ~0 -0')
    expect(lines).toContain('baskets: +24 ~0 -0')
    const baskets = await db().selectFrom('baskets').selectAll().orderBy('basket_order').execute()
    expect(baskets).toHaveLength(24)
    const source = await maarch.rows('select * from baskets order by basket_order')
    expect(baskets.map((b) => [b.basket_id, b.basket_name, b.basket_clause, b.basket_order, b.enabled])).toEqual(
      source.map((b) => [b.basket_id, b.basket_name, String(b.basket_clause).trim(), b.basket_order, b.enabled]),
    )
    const close = await db().selectFrom('actions').selectAll().where('id', '=', 20).executeTakeFirstOrThrow()
    expect(close).toMatchObject({
      label_action: 'Cloturer',
      id_status: 'END',
      component: 'closeMailAction',
      history: 'Y',
      action_page: 'close_mail',
      parameters: { requiredFields: [] },
    })
  })

  it('carries every group basket with its list display and event, every link, category and redirect choice', async () => {
    expect(await db().selectFrom('groupbasket').select(sql<number>`count(*)::int`.as('n')).executeTakeFirst()).toEqual({
      n: await count('groupbasket'),
    })
    const copy = await db()
      .selectFrom('groupbasket')
      .selectAll()
      .where('group_id', '=', 'AGENT')
      .where('basket_id', '=', 'CopyMailBasket')
      .executeTakeFirstOrThrow()
    expect(copy.list_event).toBe('documentDetails')
    expect(copy.list_display).toMatchObject({ templateColumns: 7 })
    // Links of a group the basket is not given to cannot be stated by the document: each is noted.
    const orphans = await count(
      'actions_groupbaskets a',
      'not exists (select 1 from groupbasket g where g.group_id = a.group_id and g.basket_id = a.basket_id)',
    )
    const links = await db().selectFrom('actions_groupbaskets').selectAll().execute()
    expect(links).toHaveLength((await count('actions_groupbaskets')) - orphans)
    const linkNotes = report.organisation?.notes.filter(
      (n) => n.message.includes('which the basket is not given to') || n.message.includes('of actions_groupbaskets'),
    )
    expect(linkNotes).toHaveLength(orphans)
    expect(links).toContainEqual({
      id_action: 24,
      where_clause: '',
      group_id: 'COURRIER',
      basket_id: 'RetourCourrier',
      used_in_basketlist: 'N',
      used_in_action_page: 'Y',
      default_action_list: 'Y',
    })
    expect(await db().selectFrom('actions_categories').selectAll().execute()).toHaveLength(
      await count('actions_categories'),
    )
    const redirects = await db()
      .selectFrom('groupbasket_redirect')
      .select(['group_id', 'basket_id', 'action_id', 'entity_id', 'keyword', 'redirect_mode'])
      .where('basket_id', '=', 'MyBasket')
      .where('group_id', '=', 'AGENT')
      .orderBy('keyword')
      .execute()
    expect(redirects).toEqual(
      (
        await maarch.rows(
          `select group_id, basket_id, action_id, entity_id, keyword, redirect_mode from groupbasket_redirect
           where basket_id = 'MyBasket' and group_id = 'AGENT' order by keyword`,
        )
      ).map((r) => ({ ...r, action_id: Number(r.action_id) })),
    )
  })

  it('reports in full each clause the clause language cannot take, and imports it as it is', async () => {
    const unreadable = report.organisation?.baskets?.unreadableClauses ?? []
    // Maileva's clause joins res_attachments with shippings, which Mailroom has neither the join nor the table for.
    const maileva = unreadable.find((u) => u.basket === 'Maileva_Sended')
    expect(maileva).toMatchObject({ name: 'Courriers transmis via Maileva', part: 'clause' })
    expect(maileva?.groups).toContain('AGENT')
    expect(maileva?.users).toContain('bbain')
    expect(maileva?.consequence).toContain('will see the basket "Courriers transmis via Maileva" empty')
    const stored = await db()
      .selectFrom('baskets')
      .select('basket_clause')
      .where('basket_id', '=', 'Maileva_Sended')
      .executeTakeFirstOrThrow()
    expect(stored.basket_clause).toBe(maileva?.clause)
    // Each is also a note, which `mailroom import maarch` prints.
    for (const entry of unreadable)
      expect(report.organisation?.notes).toContainEqual(
        expect.objectContaining({ section: 'baskets', id: entry.basket }),
      )
    // Every other basket's clause parses, sub-selects included: the sample's 24 less these two.
    expect(new Set(unreadable.filter((u) => u.part === 'clause').map((u) => u.basket))).toEqual(
      new Set(['AR_AlreadySend', 'Maileva_Sended']),
    )
  })

  it("carries the users' preferences, lent baskets and marks as read under Mailroom's ids", async () => {
    const ids = async (login: string) =>
      (await db().selectFrom('users').select('id').where('user_id', '=', login).executeTakeFirstOrThrow()).id
    const agent = (
      await db().selectFrom('usergroups').select('id').where('group_id', '=', 'AGENT').executeTakeFirstOrThrow()
    ).id
    const bbain = await ids('bbain')
    expect(await db().selectFrom('users_baskets_preferences').selectAll().execute()).toHaveLength(
      await count('users_baskets_preferences'),
    )
    expect(
      await db()
        .selectFrom('users_baskets_preferences')
        .select(['display', 'color'])
        .where('user_serial_id', '=', bbain)
        .where('basket_id', '=', 'CopyMailBasket')
        .execute(),
    ).toEqual([{ display: false, color: '#ff0000' }])
    expect(
      await db()
        .selectFrom('redirected_baskets')
        .select(['actual_user_id', 'owner_user_id', 'basket_id', 'group_id'])
        .execute(),
    ).toEqual([{ actual_user_id: await ids('ppetit'), owner_user_id: bbain, basket_id: 'MyBasket', group_id: agent }])
    expect(await db().selectFrom('res_mark_as_read').selectAll().execute()).toEqual([
      { res_id: 3, user_id: bbain, basket_id: 'CopyMailBasket' },
    ])
    expect(report.organisation?.baskets).toMatchObject({ loans: 1, markedAsRead: 1 })
  })

  it('applies the export back with no change, and a rerun changes nothing', async () => {
    const exported = await s.mailroom.organisation.export()
    expect((await s.mailroom.organisation.plan(exported, { prune: true })).lines).toEqual(['no changes'])
    const again = await importCollecting(s.mailroom, {
      from: source.url,
      docservers: { root: `${MAARCH_FIXTURES}/docservers` },
      only: 'reference',
    })
    expect(again.organisation?.lines).toEqual(['no changes'])
    expect(await db().selectFrom('res_mark_as_read').selectAll().execute()).toHaveLength(1)
  })
})

import type { Actor, CriteriaSearchResponse } from '@mailroom/core'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestMailroom, type TestMailroom } from '../../../testing/src/databases/test-database.js'

/**
 * Notes and attachments are served by their own capabilities, whose migrations (0013, 0014) add the tables
 * `notes`, `note_entities` and `res_attachments` with Maarch 20.10's columns. Where they exist the search reads
 * them as 20.10 does; this test creates them (the columns the search reads) when its database has none yet.
 */
let t: TestMailroom
const actors = new Map<string, Actor>()
const ids = { plain: 0, answered: 0, noted: 0 }

async function record(subject: string, chrono: string, destination: string): Promise<number> {
  const { rows } = await sql<{ res_id: number }>`insert into res_letterbox
      (subject, type_id, typist, category_id, model_id, status, destination, alt_identifier)
    values (${subject}, 101, 1, 'incoming', 1, 'NEW', ${destination}, ${chrono}) returning res_id`.execute(
    t.mailroom.db,
  )
  return Number(rows[0]!.res_id)
}

beforeAll(async () => {
  t = await createTestMailroom()
  const db = t.mailroom.db
  await sql`create table if not exists notes (id serial primary key, identifier bigint not null, user_id integer not null,
    creation_date timestamptz not null default now(), note_text text not null)`.execute(db)
  await sql`create table if not exists note_entities (id serial primary key, note_id integer not null, item_id varchar(50) not null)`.execute(
    db,
  )
  await sql`create table if not exists res_attachments (res_id bigserial primary key, res_id_master bigint not null,
    title varchar(255), identifier varchar(255), typist integer not null, status varchar(10) not null,
    attachment_type varchar(255) not null, format varchar(50) not null, docserver_id varchar(32) not null,
    creation_date timestamptz not null default now())`.execute(db)
  ids.plain = await record('Demande de stationnement', 'MAARCH/2026A/501', 'PJS')
  ids.answered = await record('Demande de salle', 'MAARCH/2026A/502', 'PJS')
  ids.noted = await record('Invitation', 'MAARCH/2026A/503', 'DRH')
  const attach = (master: number, title: string, identifier: string | null, status: string, type: string) =>
    sql`insert into res_attachments (res_id_master, title, identifier, typist, status, attachment_type, format, docserver_id)
      values (${master}, ${title}, ${identifier}, 1, ${status}, ${type}, 'pdf', 'FASTHD_ATTACH')`.execute(db)
  await attach(ids.answered, 'Réponse piscine', 'MAARCH/2026D/REC1', 'TRA', 'response_project')
  await attach(ids.answered, 'Brouillon', 'MAARCH/2026D/OLD9', 'DEL', 'simple_attachment')
  await attach(ids.plain, 'Projet', null, 'A_TRA', 'simple_attachment')
  const note = async (resId: number, text: string, entities: string[]) => {
    const { rows } = await sql<{ id: number }>`insert into notes (identifier, user_id, note_text)
      values (${resId}, 1, ${text}) returning id`.execute(db)
    for (const entity of entities)
      await sql`insert into note_entities (note_id, item_id) values (${rows[0]!.id}, ${entity})`.execute(db)
  }
  await note(ids.noted, 'Rappeler le recorder', [])
  await note(ids.noted, 'Confidentiel pour la DRH', ['DRH'])
  await note(ids.plain, 'Confidentiel pour la DRH aussi', ['DRH'])
  for (const login of ['cchaplin', 'ddur', 'bbain'])
    actors.set(login, await t.mailroom.auth.authenticatePassword(login, 'maarch'))
}, 120_000)
afterAll(async () => t?.cleanup())

function search(login: string, body: unknown): Promise<CriteriaSearchResponse> {
  return t.mailroom.criteriaSearch.search(actors.get(login)!, body, {})
}

describe('POST /rest/search where notes and attachments exist', () => {
  it("finds a record by an attachment's chrono, title or type, as 20.10 (sent, signed or frozen attachments only)", async () => {
    expect((await search('cchaplin', { chrono: { values: 'MAARCH/2026D/REC1' } })).allResources).toEqual([ids.answered])
    expect((await search('cchaplin', { chrono: { values: 'MAARCH/2026D/OLD9' } })).allResources).toEqual([])
    const quick = await search('cchaplin', { meta: { values: 'piscine' } })
    expect(quick.allResources).toEqual([ids.answered])
    // Found through its attachment: 20.10 says so with inAttachments.
    expect(quick.resources[0]?.inAttachments).toBe(true)
    const byOwnChrono = await search('cchaplin', { chrono: { values: 'MAARCH/2026A/502' } })
    expect(byOwnChrono.resources.map((r) => [r.resId, r.inAttachments])).toEqual([[ids.answered, false]])
    expect((await search('cchaplin', { subject: { values: '"Réponse piscine"' } })).allResources).toEqual([
      ids.answered,
    ])
    expect((await search('cchaplin', { attachment_type: { values: ['simple_attachment'] } })).allResources).toEqual([
      ids.plain,
    ])
    // The record's own chrono still matches through the index's part of the union.
    expect((await search('cchaplin', { chrono: { values: 'MAARCH/2026A/50' } })).allResources).toEqual([
      ids.plain,
      ids.answered,
      ids.noted,
    ])
  })

  it('counts the attachments 20.10 counts and the notes the caller may read', async () => {
    const answer = await search('cchaplin', { resId: { values: { start: ids.plain, end: ids.noted } } })
    const counts = Object.fromEntries(answer.resources.map((r) => [r.resId, [r.countAttachments, r.countNotes]]))
    expect(counts).toEqual({ [ids.plain]: [1, 0], [ids.answered]: [1, 0], [ids.noted]: [0, 1] })
  })

  it("searches the notes a caller may read: unrestricted ones, and restricted ones of the caller's entities", async () => {
    expect((await search('cchaplin', { notes: { values: 'recorder' } })).allResources).toEqual([ids.noted])
    // Restricted to DRH: ddur (DRH) finds the record he may see, cchaplin (VILLE) finds nothing and stops early.
    expect((await search('ddur', { notes: { values: 'Confidentiel' } })).allResources).toEqual([])
    expect(await search('cchaplin', { notes: { values: 'Confidentiel' } })).toEqual({
      resources: [],
      count: 0,
      allResources: [],
    })
    expect((await search('bbain', { notes: { values: 'Confidentiel' } })).allResources).toEqual([])
  })
})

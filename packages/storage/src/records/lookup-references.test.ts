import type { Actor, RecordReferenceQuery } from '@mailroom/core'
import fc from 'fast-check'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestMailroom, type TestMailroom } from '../../../testing/src/databases/test-database.js'
import { NO_REFERENCES } from '../../../testing/src/fixtures/reference-queries.js'
import { lookupReferences, lookupReferencesQuery } from './lookup-references.js'
import { ReferenceCache } from './reference-cache.js'

const NOTHING = NO_REFERENCES

let t: TestMailroom
let cchaplin: Actor
beforeAll(async () => {
  t = await createTestMailroom()
  cchaplin = await t.mailroom.auth.authenticatePassword('cchaplin', 'maarch')
})
afterAll(async () => t?.cleanup())

/** The identity sequence's state, read without moving it. */
async function identityPosition(): Promise<{ last: number; called: boolean }> {
  const { rows } = await sql<{
    last: number
    called: boolean
  }>`select last_value::integer as last, is_called as called from res_letterbox_res_id_seq`.execute(t.mailroom.db)
  return rows[0]!
}

/** The highest `$n` of a statement's text (0 when it has none). */
function highestPlaceholder(text: string): number {
  return Math.max(0, ...[...text.matchAll(/\$(\d+)/g)].map((match) => Number(match[1])))
}

const FULL: RecordReferenceQuery = {
  modelId: 1,
  doctype: 101,
  status: 'NEW',
  priority: 'poiuytre1357nbvc',
  userIds: [19],
  userLogins: ['bbain'],
  entityIds: [13, 8],
  contactIds: [1],
  folderIds: [2],
  tagIds: [1, 3],
  customFieldIds: [4],
  needEntityTree: true,
  reserveResourceId: true,
}

/** A body's references, of any shape, with any caller text. */
const anyQuery: fc.Arbitrary<RecordReferenceQuery> = fc.record({
  modelId: fc.option(fc.nat()),
  doctype: fc.option(fc.nat()),
  status: fc.option(fc.string()),
  priority: fc.option(fc.string()),
  userIds: fc.array(fc.nat(), { maxLength: 3 }),
  userLogins: fc.array(fc.string(), { maxLength: 3 }),
  entityIds: fc.array(fc.nat(), { maxLength: 3 }),
  contactIds: fc.array(fc.nat(), { maxLength: 3 }),
  folderIds: fc.array(fc.nat(), { maxLength: 3 }),
  tagIds: fc.array(fc.nat(), { maxLength: 3 }),
  customFieldIds: fc.array(fc.nat(), { maxLength: 3 }),
  needEntityTree: fc.boolean(),
  reserveResourceId: fc.boolean(),
})

/** The same shape as `query`, with fixed values: what the text may depend on. */
function sameShape(query: RecordReferenceQuery): RecordReferenceQuery {
  const list = <T>(values: readonly T[], fixed: T): T[] => (values.length > 0 ? [fixed] : [])
  return {
    modelId: query.modelId === null ? null : 1,
    doctype: query.doctype === null ? null : 1,
    status: query.status === null ? null : 'x',
    priority: query.priority === null ? null : 'x',
    userIds: list(query.userIds, 1),
    userLogins: list(query.userLogins, 'x'),
    entityIds: list(query.entityIds, 1),
    contactIds: list(query.contactIds, 1),
    folderIds: list(query.folderIds, 1),
    tagIds: list(query.tagIds, 1),
    customFieldIds: list(query.customFieldIds, 1),
    needEntityTree: query.needEntityTree,
    reserveResourceId: query.reserveResourceId,
  }
}

describe('lookupReferencesQuery', () => {
  it('reads only what the body asks: a bare body is a constant select, a full one binds every value', () => {
    const bare = lookupReferencesQuery(cchaplin, NOTHING)
    expect(bare.parameters).toEqual([])
    expect(highestPlaceholder(bare.sql)).toBe(0)
    // Only the reference version, which a ReferenceCache checks its facts against.
    expect(bare.sql.match(/\bfrom \w+/g)).toEqual(['from reference_version'])
    expect(bare.sql).not.toContain('nextval')
    const full = lookupReferencesQuery(cchaplin, FULL)
    expect(full.parameters).toEqual([
      1,
      101,
      'NEW',
      'poiuytre1357nbvc',
      [19],
      ['bbain'],
      [13, 8],
      [1],
      [2],
      cchaplin.id,
      cchaplin.entities.map((e) => e.id),
      [1, 3],
      [4],
    ])
    expect(highestPlaceholder(full.sql)).toBe(full.parameters.length)
    expect(full.sql).toContain('nextval')
  })

  it('sends one text per shape, whatever the values: caller text only ever travels as a parameter', () => {
    fc.assert(
      fc.property(anyQuery, (query) => {
        const compiled = lookupReferencesQuery(cchaplin, query)
        expect(compiled.sql).toBe(lookupReferencesQuery(cchaplin, sameShape(query)).sql)
        expect(highestPlaceholder(compiled.sql)).toBe(compiled.parameters.length)
        for (const text of [query.status, query.priority])
          if (text !== null) expect(compiled.parameters).toContain(text)
        if (query.userLogins.length > 0) expect(compiled.parameters).toContainEqual(query.userLogins)
      }),
    )
  })
})

describe('lookupReferences', () => {
  it('answers every check of a body in one statement, from the demo data', async () => {
    const facts = await lookupReferences(t.mailroom.db, cchaplin, {
      ...NOTHING,
      modelId: 1,
      doctype: 101,
      status: 'NEW',
      userIds: [cchaplin.id, 999_999],
      userLogins: ['cchaplin', 'nobody'],
      entityIds: [cchaplin.entities[0]!.id, 999_999],
      contactIds: [1, 999_999],
      tagIds: [999_999],
    })
    expect(facts.model).toMatchObject({ id: 1, enabled: true })
    expect([facts.doctypeExists, facts.statusExists, facts.priorityExists]).toEqual([true, true, false])
    expect(facts.users).toEqual(new Set([cchaplin.id]))
    expect(facts.userIdsByLogin).toEqual(new Map([['cchaplin', cchaplin.id]]))
    expect([...facts.entities]).toEqual([[cchaplin.entities[0]!.id, { entityId: cchaplin.entities[0]!.entityId }]])
    expect(facts.contacts).toEqual(new Set([1]))
    expect(facts.tags).toEqual(new Set())
  })

  it('answers a body that names nothing with empty facts', async () => {
    const facts = await lookupReferences(t.mailroom.db, cchaplin, { ...NOTHING, doctype: 999_999, status: 'NO SUCH' })
    expect(facts.model).toBeNull()
    expect([facts.doctypeExists, facts.statusExists, facts.priorityExists]).toEqual([false, false, false])
    expect([
      facts.users.size,
      facts.userIdsByLogin.size,
      facts.entities.size,
      facts.contacts.size,
      facts.visibleFolders.size,
      facts.tags.size,
      facts.customFields.size,
    ]).toEqual([0, 0, 0, 0, 0, 0, 0])
    expect(facts.entityTree).toEqual([])
    expect(facts.reservedResourceId).toBeNull()
  })

  it('runs every shape on the database, and finds nothing for a part the body does not ask', async () => {
    await fc.assert(
      fc.asyncProperty(anyQuery, async (query) => {
        const facts = await lookupReferences(t.mailroom.db, cchaplin, { ...query, reserveResourceId: false })
        if (query.modelId === null) expect(facts.model).toBeNull()
        if (query.userIds.length === 0) expect(facts.users.size).toBe(0)
        if (query.folderIds.length === 0) expect(facts.visibleFolders.size).toBe(0)
        expect(facts.entityTree.length > 0).toBe(query.needEntityTree)
      }),
      { numRuns: 40 },
    )
  })

  it('reads the entity tree and reserves a record id only when asked', async () => {
    const before = await identityPosition()
    const bare = await lookupReferences(t.mailroom.db, cchaplin, NOTHING)
    expect(bare.entityTree).toEqual([])
    expect(bare.reservedResourceId).toBeNull()
    expect(await identityPosition()).toEqual(before)

    const asked = await lookupReferences(t.mailroom.db, cchaplin, {
      ...NOTHING,
      needEntityTree: true,
      reserveResourceId: true,
    })
    const entities = await t.mailroom.db.selectFrom('entities').select('entity_id').execute()
    expect(asked.entityTree.map((e) => e.entityId).sort()).toEqual(entities.map((e) => e.entity_id).sort())
    expect(asked.reservedResourceId).toBe(before.called ? before.last + 1 : before.last)
    expect(await identityPosition()).toEqual({ last: asked.reservedResourceId, called: true })
  })

  describe('with a ReferenceCache', () => {
    const ASKED: RecordReferenceQuery = { ...NOTHING, modelId: 1, doctype: 101, status: 'TMPX', needEntityTree: true }

    it('sees every change of a kept table at the next lookup, and keeps answering while nothing changed', async () => {
      const cache = new ReferenceCache()
      await sql`insert into status (id, label_status) values ('TMPX', 'Temporary')`.execute(t.mailroom.db)
      const first = await lookupReferences(t.mailroom.db, cchaplin, ASKED, cache)
      expect(first.statusExists).toBe(true)
      expect(cache.version).not.toBeNull()

      // Kept: a change the version does not see (its trigger off) is not seen either.
      await sql`alter table status disable trigger status_reference_version`.execute(t.mailroom.db)
      await sql`delete from status where id = 'TMPX'`.execute(t.mailroom.db)
      await sql`alter table status enable trigger status_reference_version`.execute(t.mailroom.db)
      expect((await lookupReferences(t.mailroom.db, cchaplin, ASKED, cache)).statusExists).toBe(true)

      // Any change of a kept table moves the version: everything is asked again.
      const [entity] = await t.mailroom.db
        .selectFrom('entities')
        .select(['entity_id', 'entity_label'])
        .limit(1)
        .execute()
      await sql`update entities set entity_label = entity_label where entity_id = ${entity!.entity_id}`.execute(
        t.mailroom.db,
      )
      const after = await lookupReferences(t.mailroom.db, cchaplin, ASKED, cache)
      expect(after.statusExists).toBe(false)
      expect(after).toEqual(await lookupReferences(t.mailroom.db, cchaplin, ASKED))
    })

    it('answers as a lookup without cache after changes of models, fields, doctypes and entities', async () => {
      const cache = new ReferenceCache()
      const query: RecordReferenceQuery = { ...ASKED, status: 'NEW', entityIds: [cchaplin.entities[0]!.id, 999] }
      const fresh = () => lookupReferences(t.mailroom.db, cchaplin, query)
      expect(await lookupReferences(t.mailroom.db, cchaplin, query, cache)).toEqual(await fresh())
      const changes = [
        sql`update indexing_models_fields set enabled = not enabled where model_id = 1 and identifier = 'subject'`,
        sql`insert into entities (id, entity_id, entity_label, short_label, entity_type, enabled) values (999, 'NEWE', 'New', 'New', 'Service', 'Y')`,
        sql`update doctypes set description = description || '.' where type_id = 101`,
        sql`update indexing_models set enabled = not enabled where id = 1`,
      ]
      for (const change of changes) {
        await change.execute(t.mailroom.db)
        const cached = await lookupReferences(t.mailroom.db, cchaplin, query, cache)
        expect(cached).toEqual(await fresh())
      }
      expect((await lookupReferences(t.mailroom.db, cchaplin, query, cache)).entities.get(999)).toEqual({
        entityId: 'NEWE',
      })
    })
  })
})

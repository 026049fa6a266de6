import { compactOrganisation, type DomainError, type OrganisationDocumentInput } from '@mailroom/core'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  createTestMailroom,
  TEST_PASSWORD_HASHER,
  type TestMailroom,
} from '../../../testing/src/databases/test-database.js'
import { createOrganisationAdmin, type OrganisationAdmin } from './organisation-admin.js'
import { formatOrganisationYaml } from './organisation-text.js'

let t: TestMailroom
let admin: OrganisationAdmin
beforeAll(async () => {
  t = await createTestMailroom()
  admin = createOrganisationAdmin({
    db: t.mailroom.db,
    hasher: TEST_PASSWORD_HASHER,
    passwordPolicy: { minLength: 10 },
  })
})
afterAll(async () => t?.cleanup())

async function refusal(promise: Promise<unknown>): Promise<DomainError> {
  try {
    await promise
  } catch (error) {
    return error as DomainError
  }
  throw new Error('expected a refusal')
}

const referenceVersion = async () =>
  Number((await sql<{ v: string }>`select version::text as v from reference_version`.execute(t.mailroom.db)).rows[0]!.v)

describe('organisation export and apply', () => {
  it('applies its own export with no change, as a document or as YAML text', async () => {
    const exported = await admin.export()
    const history = (await admin.history()).length
    const again = await admin.apply(exported)
    expect(again).toMatchObject({ applied: false, lines: ['no changes'] })
    expect((await admin.apply(formatOrganisationYaml(compactOrganisation(exported) as never))).lines).toEqual([
      'no changes',
    ])
    expect(await admin.history()).toHaveLength(history)
  })

  it('adds and changes in one transaction, records the plan and moves the reference version', async () => {
    const before = await referenceVersion()
    const document: OrganisationDocumentInput = {
      version: 1,
      entities: [{ id: 'ARCH', label: 'Archives', shortLabel: 'Archives', type: 'Service', parent: 'DGS' }],
      statuses: [{ id: 'NEW', label: 'Nouveau', system: true }],
      users: [{ login: 'aarchiv', firstname: 'Anne', groups: ['AGENT'], entities: [{ id: 'ARCH', primary: true }] }],
    }
    const result = await admin.apply(document, { author: { userId: 1, name: 'superadmin' } })
    expect(result.applied).toBe(true)
    expect(result.summary).toEqual({
      entities: { added: ['ARCH'], changed: [], removed: [] },
      users: { added: ['aarchiv'], changed: [], removed: [] },
      statuses: { added: [], changed: ['NEW'], removed: [] },
    })
    const arch = await t.mailroom.db
      .selectFrom('entities')
      .selectAll()
      .where('entity_id', '=', 'ARCH')
      .executeTakeFirstOrThrow()
    expect(arch).toMatchObject({ parent_entity_id: 'DGS', id: 9 })
    expect(await referenceVersion()).toBeGreaterThan(before)
    const [entry] = await admin.history({ limit: 1 })
    expect(entry).toMatchObject({
      event: 'ORG_APPLY',
      userId: 1,
      author: 'superadmin',
      details: { prune: false, summary: result.summary },
    })
    expect((await admin.apply(document)).lines).toEqual(['no changes'])
    // The new user exists but has no password yet: nobody can log in as them.
    await expect(t.mailroom.auth.authenticatePassword('aarchiv', '!')).rejects.toMatchObject({
      code: 'AUTHENTICATION_FAILED',
    })
  })

  it('serialises concurrent applies: the same document applied twice at once is applied once', async () => {
    const document = { version: 1, tags: [{ id: 20, label: 'RACE' }] }
    const results = await Promise.all([admin.apply(document), admin.apply(document)])
    expect(results.map((r) => r.applied).sort()).toEqual([false, true])
    expect(results.map((r) => r.lines[0]).sort()).toEqual(['no changes', 'tags: +1 ~0 -0 (added: 20)'])
  })

  it('dry-runs without changing anything', async () => {
    const result = await admin.apply({ version: 1, tags: [{ id: 9, label: 'DRY' }] }, { dryRun: true })
    expect(result).toMatchObject({ applied: false, lines: ['tags: +1 ~0 -0 (added: 9)'] })
    expect(await t.mailroom.db.selectFrom('tags').select('id').where('id', '=', 9).executeTakeFirst()).toBeUndefined()
  })

  it('prunes what a present section does not list, never what records use, and nothing on refusal', async () => {
    const cchaplin = await t.mailroom.actor('cchaplin')
    await t.mailroom.records.create(cchaplin, { modelId: 1, status: 'NEW', subject: 'kept by prune' })
    const statuses = (await admin.export()).statuses!
    const exportedBefore = await admin.export()
    const refused = await refusal(
      admin.apply({ version: 1, statuses: statuses.filter((s) => s.id !== 'NEW' && s.id !== 'DEL') }, { prune: true }),
    )
    expect(refused.code).toBe('ORGANISATION_REFUSED')
    expect(refused.message).toBe(
      'Organisation document cannot be applied, nothing was changed:\nstatuses: cannot remove "NEW": records use it',
    )
    expect(await admin.export()).toEqual(exportedBefore)
    const pruned = await admin.apply({ version: 1, statuses: statuses.filter((s) => s.id !== 'DEL') }, { prune: true })
    expect(pruned.summary).toEqual({ statuses: { added: [], changed: [], removed: ['DEL'] } })
    expect((await admin.export()).statuses!.map((s) => s.id)).not.toContain('DEL')
    expect(
      Number(
        (await sql<{ n: string }>`select count(*)::text as n from res_letterbox`.execute(t.mailroom.db)).rows[0]!.n,
      ),
    ).toBe(1)
  })

  it.each([
    [
      'a cycle in the entity tree',
      {
        entities: [
          { id: 'A', label: 'A', shortLabel: 'A', type: 'S', parent: 'B' },
          { id: 'B', label: 'B', shortLabel: 'B', type: 'S', parent: 'A' },
        ],
      },
      'entities[0].parent: cycle in the entity tree: "A" -> "B" -> "A"',
    ],
    [
      'two primary entities',
      {
        users: [
          {
            login: 'x',
            entities: [
              { id: 'CAB', primary: true },
              { id: 'DGS', primary: true },
            ],
          },
        ],
      },
      'users[0].entities[1].primary: two primary entities ("CAB" and "DGS")',
    ],
    ['an unknown group', { users: [{ login: 'x', groups: ['AGNT'] }] }, 'users[0].groups[0]: no group "AGNT"'],
    [
      'a clause that does not parse',
      { groups: [{ id: 'G', label: 'G', perimeter: 'destinaton = 1' }] },
      'groups[0].perimeter: unknown column "destinaton" at position 1',
    ],
    [
      'duplicate logins',
      { users: [{ login: 'x' }, { login: 'X' }] },
      'users[1].login: duplicate login "x" (also users[0])',
    ],
  ])('refuses %s with its path and changes nothing', async (_name, body, message) => {
    const before = await admin.export()
    const error = await refusal(admin.apply({ version: 1, ...body }))
    expect(error).toMatchObject({ code: 'ORGANISATION_INVALID', kind: 'bad-request' })
    expect(error.message.split('\n').slice(1)).toEqual([message])
    expect(await admin.export()).toEqual(before)
  })

  it('refuses a file that is not YAML with its line and column', async () => {
    const error = await refusal(admin.apply('version: 1\nentities: [\n  - id: A\n'))
    expect(error.code).toBe('ORGANISATION_NOT_PARSED')
    expect(error.message).toMatch(/^Organisation document is not valid YAML or JSON: line \d+, column \d+: /)
    const duplicate = await refusal(admin.apply('version: 1\nversion: 1\n'))
    expect(duplicate.message).toMatch(/line 2, column 1: .*unique/i)
  })

  it('names a user of the document that a pruned section would leave without its group', async () => {
    const error = await refusal(
      admin.apply(
        { version: 1, groups: [{ id: 'ADMIN', label: 'Admins' }], users: [{ login: 'bbain', groups: ['AGENT'] }] },
        { prune: true },
      ),
    )
    expect(error.message).toContain('users[0].groups[0]: no group "AGENT"')
  })
})

describe('the digital-safe right', () => {
  it('is withdrawn from a group by its document, refusing its members the journal', async () => {
    const agent = (await admin.export()).groups!.find((g) => g.id === 'AGENT')!
    const read = async () => t.mailroom.journal.readEvents(await t.mailroom.actor('bbain'), '21750001600019', {})
    await expect(read()).resolves.toBeDefined()
    await admin.apply({ version: 1, groups: [{ ...agent, digitalSafe: false }] })
    await expect(read()).rejects.toMatchObject({ code: 'JOURNAL_NOT_ALLOWED', kind: 'forbidden' })
    await admin.apply({ version: 1, groups: [agent] })
    await expect(read()).resolves.toBeDefined()
  })
})

describe('group privileges', () => {
  it("are given and withdrawn by the group's document, and its members hold them at once", async () => {
    const agent = (await admin.export()).groups!.find((g) => g.id === 'AGENT')!
    const privileges = async () => (await t.mailroom.actor('bbain')).groups.flatMap((g) => g.privileges ?? [])
    expect(agent.privileges).toEqual(['add_links', 'create_contacts', 'manage_attachments', 'update_contacts'])
    expect(await privileges()).toEqual(agent.privileges)
    const plan = await admin.apply({ version: 1, groups: [{ ...agent, privileges: ['admin_users', 'add_links'] }] })
    expect(plan.summary.groups?.changed).toEqual(['AGENT'])
    expect((await privileges()).sort()).toEqual(['add_links', 'admin_users'])
    // The same set in another order changes nothing.
    const again = await admin.apply({ version: 1, groups: [{ ...agent, privileges: ['add_links', 'admin_users'] }] })
    expect(again.summary.groups).toBeUndefined()
    await admin.apply({ version: 1, groups: [agent] })
    expect(await privileges()).toEqual(agent.privileges)
  })
})

describe('user administration', () => {
  it('adds a user with a password that follows the policy, who can then log in', async () => {
    const weak = await refusal(admin.addUser({ login: 'newbie', password: 'short' }))
    expect(weak.message).toBe('Password does not follow the password rules: at least 10 characters')
    const user = await admin.addUser({
      login: 'newbie',
      password: 'long enough pass',
      groups: ['AGENT'],
      entities: [{ id: 'PJS', primary: true }],
    })
    expect(user).toMatchObject({
      login: 'newbie',
      enabled: true,
      groups: ['AGENT'],
      primaryEntity: 'PJS',
      mode: 'standard',
    })
    expect((await t.mailroom.auth.authenticatePassword('newbie', 'long enough pass')).login).toBe('newbie')
    expect((await refusal(admin.addUser({ login: 'NEWBIE' }))).message).toBe('User "NEWBIE" already exists')
    expect((await refusal(admin.addUser({ login: 'other', groups: ['NOPE'] }))).message).toContain(
      'users[0].groups[0]: no group "NOPE"',
    )
    expect((await refusal(admin.addUser(null as never))).message).toBe(
      'Organisation document is not valid (1 error):\nlogin: expected a string',
    )
  })

  it('changes a password under the policy and records who did', async () => {
    await expect(admin.setPassword('newbie', 'tiny')).rejects.toMatchObject({ code: 'PASSWORD_POLICY' })
    await expect(admin.setPassword('ghost', 'long enough pass')).rejects.toMatchObject({
      code: 'USER_NOT_FOUND',
      message: 'No user "ghost"',
    })
    await admin.setPassword('newbie', 'another long pass', { userId: 1, name: 'superadmin' })
    await expect(t.mailroom.auth.authenticatePassword('newbie', 'long enough pass')).rejects.toMatchObject({
      code: 'AUTHENTICATION_FAILED',
    })
    expect((await t.mailroom.auth.authenticatePassword('newbie', 'another long pass')).login).toBe('newbie')
    expect((await admin.history({ limit: 1 }))[0]).toMatchObject({
      event: 'USER_PASSWORD',
      author: 'superadmin',
      details: { login: 'newbie' },
    })
  })

  it('disables a user: passwords, access and refresh tokens all stop at once; enabling restores passwords', async () => {
    const session = await t.mailroom.auth.login('newbie', 'another long pass')
    const service = await t.mailroom.auth.issueServiceToken('newbie')
    expect((await t.mailroom.auth.authenticateToken(session.token)).login).toBe('newbie')
    expect((await t.mailroom.auth.authenticateToken(service)).login).toBe('newbie')
    const disabled = await admin.setEnabled('newbie', false)
    await expect(t.mailroom.auth.authenticateToken(service)).rejects.toMatchObject({ code: 'AUTHENTICATION_FAILED' })
    expect(disabled.enabled).toBe(false)
    await expect(t.mailroom.auth.authenticatePassword('newbie', 'another long pass')).rejects.toMatchObject({
      code: 'AUTHENTICATION_FAILED',
    })
    await expect(t.mailroom.auth.authenticateToken(session.token)).rejects.toMatchObject({
      code: 'AUTHENTICATION_FAILED',
    })
    await expect(t.mailroom.auth.refresh(session.refreshToken)).rejects.toMatchObject({ code: 'AUTHENTICATION_FAILED' })
    expect((await admin.setEnabled('newbie', true)).enabled).toBe(true)
    expect((await t.mailroom.auth.authenticatePassword('newbie', 'another long pass')).login).toBe('newbie')
    // Refresh and service tokens issued before the user was disabled stay dead.
    await expect(t.mailroom.auth.refresh(session.refreshToken)).rejects.toMatchObject({ code: 'AUTHENTICATION_FAILED' })
    await expect(t.mailroom.auth.authenticateToken(service)).rejects.toMatchObject({ code: 'AUTHENTICATION_FAILED' })
    expect((await admin.history({ limit: 2 })).map((h) => h.event)).toEqual(['USER_ENABLE', 'USER_DISABLE'])
  })

  it('lists users with their groups and primary entity', async () => {
    const users = await admin.listUsers()
    expect(users.find((u) => u.login === 'bbain')).toEqual({
      id: 3,
      login: 'bbain',
      firstname: 'Barbara',
      lastname: 'BAIN',
      mail: 'bbain@maarch-les-bains.fr',
      mode: 'standard',
      enabled: true,
      groups: ['AGENT'],
      primaryEntity: 'PJS',
    })
  })
})

describe('organisation text', () => {
  it('reads JSON and YAML to the same document, and explains bad JSON with the YAML reader', async () => {
    const { parseOrganisationText } = await import('./organisation-text.js')
    const doc = { version: 1, tags: [{ id: 1, label: 'A: b' }] }
    expect(parseOrganisationText(JSON.stringify(doc))).toEqual(doc)
    expect(parseOrganisationText('version: 1\ntags:\n  - id: 1\n    label: "A: b"\n')).toEqual(doc)
    expect(() => parseOrganisationText('{"version": 1,,}')).toThrow(
      /^Organisation document is not valid YAML or JSON: line 1, column \d+: /,
    )
  })
})

describe('the example of docs/organisation.md', () => {
  it('applies to an empty database, then applies again with no change', async () => {
    const { readFileSync } = await import('node:fs')
    const text = readFileSync(new URL('../../../../docs/organisation-example.yaml', import.meta.url), 'utf8')
    const empty = await createTestMailroom({ demo: false })
    try {
      const result = await empty.mailroom.organisation.apply(text)
      expect(result.lines[0]).toBe('entities: +4 ~0 -0 (added: CITY, MAIL, HR, PAYROLL)')
      expect(result.lines).toHaveLength(16)
      expect(result.lines[13]).toBe('parameters: +2 ~0 -0 (added: workingDays, homepage_message)')
      expect(result.lines.slice(14)).toEqual([
        'actions: +3 ~0 -0 (added: 19, 20, 1)',
        'baskets: +2 ~0 -0 (added: MyBasket, LateMailBasket)',
      ])
      expect((await empty.mailroom.organisation.apply(text)).lines).toEqual(['no changes'])
    } finally {
      await empty.cleanup()
    }
  })
})

describe('every server sharing the database', () => {
  it('sees a change made by another at once: disabled users, new entities in perimeters', async () => {
    const { createMailroom } = await import('../../../testing/src/storage-test-kit.js')
    const other = await createMailroom({
      database: t.mailroom.db,
      docserverDir: t.docserverDir,
      secret: t.secret,
      passwordHasher: TEST_PASSWORD_HASHER,
      migrate: false,
      journal: { sweepIntervalMs: 0 },
    })
    try {
      await admin.addUser({
        login: 'shared',
        password: 'shared password 1',
        groups: ['AGENT'],
        entities: [{ id: 'PJS', primary: true }],
      })
      const session = await other.auth.login('shared', 'shared password 1')
      const search = async () =>
        (
          await other.search.list(await other.auth.authenticateToken(session.token), {
            select: 'res_id',
            clause: "subject = 'in a new office'",
          })
        ).resources
      expect(await search()).toEqual([])
      // Another server adds an office under PJS and files a record there.
      await t.mailroom.organisation.apply({
        version: 1,
        entities: [{ id: 'PJS_NEW', label: 'New office', shortLabel: 'New', type: 'Bureau', parent: 'PJS' }],
      })
      const serial = (await t.mailroom.organisation.export()).entities!.find((e) => e.id === 'PJS_NEW')!.serialId!
      const { resId } = await t.mailroom.records.create(await t.mailroom.actor('superadmin'), {
        modelId: 1,
        status: 'NEW',
        subject: 'in a new office',
        destination: serial,
      })
      expect(await search()).toEqual([{ res_id: resId }])
      await t.mailroom.organisation.setEnabled('shared', false)
      await expect(other.auth.authenticateToken(session.token)).rejects.toMatchObject({ code: 'AUTHENTICATION_FAILED' })
      await expect(other.auth.authenticatePassword('shared', 'shared password 1')).rejects.toMatchObject({
        code: 'AUTHENTICATION_FAILED',
      })
    } finally {
      await other.close()
    }
  })
})

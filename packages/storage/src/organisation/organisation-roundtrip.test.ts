import {
  canonicalBasket,
  compactOrganisation,
  LIST_EVENTS,
  type OrganisationDocument,
  validateOrganisation,
} from '@mailroom/core'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestMailroom, type TestMailroom } from '../../../testing/src/databases/test-database.js'
import { formatOrganisationYaml } from './organisation-text.js'

let t: TestMailroom
beforeAll(async () => {
  t = await createTestMailroom()
})
afterAll(async () => t?.cleanup())

/** Printable text, as people and importers write it (lone surrogates and NUL are refused by the schema). */
const label = fc.string({
  minLength: 1,
  maxLength: 24,
  unit: fc.constantFrom(
    ...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 -_\'"éèàçÔ€:#&*!?'.split(''),
  ),
})
const maybe = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: null })
/** A moment as an export writes it (ISO 8601, milliseconds, UTC). */
const moment = fc
  .date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2099-12-31T00:00:00Z'), noInvalidDate: true })
  .map((date) => date.toISOString())
const CLAUSES = [
  '1=1',
  '1=0',
  'destination in (@my_entities)',
  'destination in (@my_entities, @subentities[@my_primary_entity])',
  "status <> 'END' and typist = @user_id",
]
const KEYWORDS = ['ALL_ENTITIES', 'MY_ENTITIES', 'ALL_ENTITIES_BELOW', 'ENTITIES_JUST_UP'] as const
const ACTION_IDS = [1, 20, 114, 400] as const
const LIST_DISPLAY = {
  templateColumns: 2,
  subInfos: [{ value: 'getPriority', cssClasses: [], icon: 'fa-traffic-light' }],
}

/** Random complete organisations: every section present, references resolved, trees without cycles. */
const organisation = fc
  .record({
    entityCount: fc.integer({ min: 1, max: 8 }),
    groupCount: fc.integer({ min: 1, max: 3 }),
    userCount: fc.integer({ min: 1, max: 6 }),
  })
  .chain(({ entityCount, groupCount, userCount }) => {
    const codes = Array.from({ length: entityCount }, (_, i) => `E${i}`)
    const groupIds = Array.from({ length: groupCount }, (_, i) => `G${i}`)
    const logins = Array.from({ length: userCount }, (_, i) => `user${i}`)
    const entity = (id: string, index: number) =>
      fc.record({
        id: fc.constant(id),
        label,
        shortLabel: label,
        type: fc.constantFrom('Direction', 'Service', 'Bureau'),
        parent: index === 0 ? fc.constant(null) : maybe(fc.constantFrom(...codes.slice(0, index))),
        businessId: maybe(fc.stringMatching(/^\d{14}$/)),
        enabled: fc.boolean(),
        email: maybe(fc.constant(`${id.toLowerCase()}@example.org`)),
        address: fc.record({
          line1: maybe(label),
          line2: fc.constant(null),
          line3: fc.constant(null),
          zipcode: maybe(fc.stringMatching(/^\d{5}$/)),
          city: maybe(label),
          country: fc.constant(null),
        }),
        externalId: fc.dictionary(fc.constantFrom('m2m', 'ref'), label, { maxKeys: 2 }),
      })
    const group = (id: string) =>
      fc.record({
        id: fc.constant(id),
        label,
        perimeter: maybe(fc.constantFrom(...CLAUSES)),
        canIndex: fc.boolean(),
        indexing: fc.record({ entities: fc.subarray(codes), keywords: fc.subarray([...KEYWORDS]) }),
        digitalSafe: fc.boolean(),
        privileges: fc.subarray(['add_links', 'create_contacts', 'update_contacts', 'admin_users', 'view_doc_history']),
      })
    const user = (login: string) =>
      fc
        .record({
          firstname: maybe(label),
          lastname: maybe(label),
          mode: fc.constantFrom('standard', 'rest', 'root_visible'),
          enabled: fc.boolean(),
          groups: fc.subarray(groupIds),
          memberships: fc.subarray(codes),
          primary: fc.boolean(),
        })
        .map(({ memberships, primary, ...rest }) => ({
          login,
          ...rest,
          entities: memberships.map((id, i) => ({ id, primary: primary && i === 0, role: null })),
        }))
    return fc.record({
      version: fc.constant(1 as const),
      entities: fc.tuple(...codes.map(entity)),
      groups: fc.tuple(...groupIds.map(group)),
      users: fc.tuple(...logins.map(user)),
      statuses: fc.uniqueArray(fc.record({ id: fc.stringMatching(/^[A-Z]{2,6}$/), label, closing: fc.boolean() }), {
        minLength: 1,
        maxLength: 4,
        selector: (s) => s.id,
      }),
      doctypeFirstLevels: fc.constant([{ id: 1, label: 'Letters' }]),
      doctypeSecondLevels: fc.constant([{ id: 1, label: 'Requests', firstLevel: 1 }]),
      doctypes: fc.uniqueArray(
        fc.record({
          id: fc.integer({ min: 1, max: 500 }),
          label,
          secondLevel: fc.constant(1),
          processDelay: fc.integer({ min: 0, max: 90 }),
        }),
        { maxLength: 4, selector: (d) => d.id },
      ),
      indexingModels: fc.constant([
        {
          id: 1,
          label: 'Incoming',
          category: 'incoming' as const,
          owner: logins[0]!,
          fields: [
            { identifier: 'doctype', mandatory: true, unit: 'mail' },
            { identifier: 'subject', defaultValue: 'none' },
          ],
        },
      ]),
      priorities: fc.uniqueArray(
        fc.record({ id: fc.stringMatching(/^[a-z]{3,10}$/), label, delays: maybe(fc.integer({ min: 0, max: 60 })) }),
        { minLength: 1, maxLength: 3, selector: (p) => p.id },
      ),
      customFields: fc.uniqueArray(
        fc.record({
          id: fc.integer({ min: 1, max: 50 }),
          label,
          type: fc.constantFrom('string' as const, 'select' as const),
          values: fc.array(label, { maxLength: 3 }),
        }),
        { maxLength: 3, selector: (f) => f.id },
      ),
      tags: fc.uniqueArray(fc.record({ id: fc.integer({ min: 1, max: 50 }), label }), {
        maxLength: 3,
        selector: (x) => x.id,
      }),
      folders: fc.constant([
        { id: 1, label: 'Shared', public: true, owner: logins[0]!, sharing: [{ entity: codes[0]!, edition: true }] },
      ]),
      contacts: fc.uniqueArray(
        fc.record({
          id: fc.integer({ min: 1, max: 50 }),
          civility: maybe(fc.constantFrom('title1', 'title2', 'title99')),
          firstname: maybe(label),
          lastname: maybe(label),
          company: maybe(label),
          department: maybe(label),
          function: maybe(label),
          addressNumber: maybe(fc.constantFrom('12', '3 bis', '')),
          addressStreet: maybe(label),
          addressAdditional1: maybe(label),
          addressAdditional2: maybe(label),
          addressPostcode: maybe(fc.stringMatching(/^\d{5}$/)),
          addressTown: maybe(label),
          addressCountry: maybe(label),
          email: maybe(fc.constantFrom('a@example.org', 'B@Example.org')),
          phone: maybe(fc.constantFrom('01 02 03 04 05', '+33102030405')),
          communicationMeans: maybe(fc.constantFrom({ url: 'https://m2m.example.org' }, { email: 'm2m@example.org' })),
          notes: maybe(label),
          creator: maybe(fc.constantFrom(...logins)),
          creationDate: moment,
          modificationDate: maybe(moment),
          enabled: fc.boolean(),
          customFields: maybe(fc.dictionary(fc.constantFrom('1', '2'), label, { maxKeys: 2 })),
          externalId: fc.dictionary(fc.constantFrom('m2m', 'ia_tmp_contact_id'), label, { maxKeys: 2 }),
        }),
        { maxLength: 3, selector: (c) => c.id },
      ),
      parameters: fc.uniqueArray(
        fc.record({
          // Lower-case letters and digits: every collation orders them as JavaScript does.
          id: fc.stringMatching(/^p[a-z0-9]{1,8}$/),
          description: maybe(label),
          stringValue: maybe(fc.oneof(label, fc.constant(''))),
          integerValue: maybe(fc.integer({ min: -2147483648, max: 2147483647 })),
          dateValue: maybe(
            fc
              .date({
                min: new Date('1970-01-01T00:00:00Z'),
                max: new Date('2099-12-31T23:59:59Z'),
                noInvalidDate: true,
              })
              .map((d) => d.toISOString().slice(0, 19).replace('T', ' ')),
          ),
        }),
        { maxLength: 4, selector: (p) => p.id },
      ),
      actions: fc.uniqueArray(
        fc.record({
          id: fc.constantFrom(...ACTION_IDS),
          label,
          keyword: fc.constantFrom('', 'redirect'),
          // A status of the document is put in below, where the statuses are known.
          setsStatus: fc.boolean(),
          component: fc.constantFrom('confirmAction', 'closeMailAction', 'redirectAction', 'sendShippingAction'),
          history: fc.boolean(),
          system: fc.boolean(),
          actionPage: maybe(fc.constantFrom('confirm_status', 'close_mail')),
          parameters: fc.constantFrom({}, { requiredFields: [] }, { mode: 'manual' }),
          categories: fc.subarray(['incoming', 'outgoing', 'internal'] as const),
        }),
        { maxLength: 4, selector: (a) => a.id },
      ),
      baskets: fc.uniqueArray(
        fc.record({
          id: fc.stringMatching(/^b[a-z0-9]{1,8}$/),
          name: label,
          description: fc.oneof(fc.constant(''), label),
          clause: fc.constantFrom(...CLAUSES),
          color: maybe(fc.constantFrom('#2ea3f2', '#ff0000')),
          order: maybe(fc.integer({ min: -5, max: 500 })),
          resOrder: fc.constantFrom('res_id desc', 'priority, process_limit_date asc'),
          enabled: fc.boolean(),
          visible: fc.boolean(),
          groups: fc.subarray(groupIds).chain((given) =>
            fc.tuple(
              ...given.map((group) =>
                fc.record({
                  group: fc.constant(group),
                  listDisplay: fc.constantFrom([], LIST_DISPLAY),
                  listEvent: fc.constantFrom(...LIST_EVENTS),
                  listEventData: maybe(fc.constant({ canUpdateData: true, defaultTab: 'info' })),
                  actions: fc.uniqueArray(
                    fc.record({
                      action: fc.constantFrom(...ACTION_IDS),
                      list: fc.boolean(),
                      page: fc.boolean(),
                      default: fc.boolean(),
                      where: fc.constantFrom('', "status <> 'END'"),
                      redirects: fc.uniqueArray(
                        fc.oneof(
                          fc.record({
                            entity: fc.constant(null),
                            keyword: fc.constantFrom(...KEYWORDS),
                            mode: fc.constantFrom('ENTITY' as const, 'USERS' as const),
                          }),
                          fc.record({
                            entity: fc.constantFrom(...codes),
                            keyword: fc.constant(null),
                            mode: fc.constantFrom('ENTITY' as const, 'USERS' as const),
                          }),
                        ),
                        { maxLength: 2, selector: (r) => `${r.entity}/${r.keyword}/${r.mode}` },
                      ),
                    }),
                    { maxLength: 3, selector: (l) => l.action },
                  ),
                }),
              ),
            ),
          ),
        }),
        { maxLength: 3, selector: (b) => b.id },
      ),
      listTemplates: fc.uniqueArray(
        fc.record({
          id: fc.integer({ min: 1, max: 30 }),
          title: label,
          description: maybe(label),
          type: fc.constantFrom('diffusionList' as const, 'visaCircuit' as const, 'opinionCircuit' as const),
          entity: maybe(fc.constantFrom(...codes)),
          owner: maybe(fc.constantFrom(...logins)),
          members: fc.array(
            fc.oneof(
              fc.record({
                type: fc.constant('user' as const),
                id: fc.constantFrom(...logins),
                mode: fc.constantFrom('dest', 'cc', 'avis', 'visa', 'sign'),
              }),
              fc.record({
                type: fc.constant('entity' as const),
                id: fc.constantFrom(...codes),
                mode: fc.constantFrom('cc', 'avis'),
              }),
            ),
            { maxLength: 4 },
          ),
        }),
        { maxLength: 3, selector: (t) => t.id },
      ),
      attachmentTypes: fc.uniqueArray(
        fc.record({
          id: fc.constantFrom('response_project', 'simple_attachment', 'outgoing_mail', 'signed_response'),
          label,
          icon: fc.constantFrom('', 'PJ'),
          sign: fc.boolean(),
          chrono: fc.boolean(),
          attachInMail: fc.boolean(),
          show: fc.boolean(),
        }),
        { maxLength: 3, selector: (x) => x.id },
      ),
    })
  })
  .map((doc) => ({
    ...doc,
    priorities: doc.priorities.map((p, i) => ({ ...p, order: i + 1 })),
    doctypes: [...doc.doctypes].sort((a, b) => a.id - b.id),
    customFields: [...doc.customFields].sort((a, b) => a.id - b.id),
    tags: [...doc.tags].sort((a, b) => a.id - b.id),
    contacts: [...doc.contacts].sort((a, b) => a.id - b.id),
    parameters: [...doc.parameters].sort((a, b) => (a.id < b.id ? -1 : 1)),
    attachmentTypes: [...doc.attachmentTypes].sort((a, b) => (a.id < b.id ? -1 : 1)),
    // One assignee at most: the others given in copy.
    listTemplates: [...doc.listTemplates]
      .sort((a, b) => a.id - b.id)
      .map((t) => ({
        ...t,
        members: t.members.map((m, i) =>
          m.mode === 'dest' && t.members.findIndex((o) => o.mode === 'dest') !== i ? { ...m, mode: 'cc' } : m,
        ),
      })),
    actions: [...doc.actions]
      .sort((a, b) => a.id - b.id)
      .map(({ setsStatus, ...a }, i) => ({
        ...a,
        status: setsStatus ? (doc.statuses[i % doc.statuses.length]?.id ?? null) : '_NOSTATUS_',
        categories: [...a.categories].sort(),
      })),
    // Links to the actions the document has, one default at most per group, in the export's order.
    baskets: [...doc.baskets]
      .sort((a, b) => (a.id < b.id ? -1 : 1))
      .map((basket) =>
        canonicalBasket({
          ...basket,
          groups: basket.groups.map((given) => {
            const actions = given.actions.filter((l) => doc.actions.some((a) => a.id === l.action))
            const first = actions.findIndex((l) => l.default)
            return { ...given, actions: actions.map((l, i) => ({ ...l, default: i === first })) }
          }),
        }),
      ),
  }))

/**
 * What an export says of an item the document wrote: stored ids dropped, memberships in the export's order, the
 * statuses by id (an export lists them in the order they were created, and a status kept from an earlier apply
 * was created before the document's new ones).
 */
function comparable(document: OrganisationDocument): OrganisationDocument {
  return {
    ...document,
    statuses: document.statuses && [...document.statuses].sort((a, b) => (a.id < b.id ? -1 : 1)),
    entities: document.entities?.map(({ serialId: _s, ...e }) => e),
    groups: document.groups?.map(({ serialId: _s, ...g }) => g),
    users: document.users?.map(({ id: _i, passwordHash: _p, ...u }) => ({
      ...u,
      groups: [...u.groups].sort(),
      entities: [...u.entities].sort((a, b) => Number(b.primary) - Number(a.primary) || (a.id < b.id ? -1 : 1)),
    })),
  }
}

describe('organisation round trip', () => {
  it('exports exactly what was applied, and the export (full or compact YAML) applies with no change', async () => {
    const admin = t.mailroom.organisation
    await fc.assert(
      fc.asyncProperty(organisation, async (input) => {
        const validated = validateOrganisation(input)
        if (!validated.ok) throw new Error(validated.issues.map((i) => `${i.path}: ${i.message}`).join('\n'))
        await admin.apply(input, { prune: true })
        const exported = await admin.export()
        expect(comparable(exported)).toEqual(comparable(validated.document))
        expect((await admin.apply(exported, { prune: true })).lines).toEqual(['no changes'])
        expect(
          (
            await admin.apply(formatOrganisationYaml(compactOrganisation(exported) as OrganisationDocument), {
              prune: true,
            })
          ).lines,
        ).toEqual(['no changes'])
      }),
      { numRuns: 20 },
    )
  })
})

describe('contacts in the organisation document', () => {
  it('keep their dates when a document leaves them out, and name their creator by login', async () => {
    const admin = t.mailroom.organisation
    const base = await admin.export()
    const creator = base.users?.[0]?.login ?? null
    // A new id: the round trip's property leaves contacts of ids 1 to 50 behind, whichever its last run drew.
    const id = Math.max(0, ...(base.contacts ?? []).map((c) => c.id)) + 1
    const contact = { id, lastname: 'Sans date', creator, externalId: { m2m: '21750001600019/PISCINE' } }
    await admin.apply({ ...base, contacts: [...(base.contacts ?? []), contact] })
    const stored = (await admin.export()).contacts?.find((c) => c.id === id)
    expect(stored).toMatchObject({ ...contact, modificationDate: null, customFields: null, enabled: true })
    expect(Number.isNaN(Date.parse(stored?.creationDate ?? ''))).toBe(false)
    expect((await admin.apply({ ...base, contacts: [...(base.contacts ?? []), contact] })).lines).toEqual([
      'no changes',
    ])
    const unknown = validateOrganisation({ version: 1, contacts: [{ id: 41, lastname: 'x', creator: 'nobody' }] })
    expect(unknown.ok).toBe(false)
  })
})

import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { validateOrganisation } from './validate-organisation.js'

const COPY_CLAUSE = "res_id in (select res_id from listinstance where item_id = @user_id and item_mode = 'cc')"
/** Maileva's basket: a join, which the clause language's sub-selects do not take. */
const JOIN_CLAUSE =
  'res_id in (select distinct r.res_id_master from res_attachments r inner join shippings s on s.document_id = r.res_id)'

/** A small organisation with one basket given to one group, one action offered there. */
function document(basket: Record<string, unknown> = {}, action: Record<string, unknown> = {}) {
  return {
    version: 1,
    entities: [{ id: 'COU', label: 'Courrier', shortLabel: 'COU', type: 'Service' }],
    groups: [{ id: 'AGENT', label: 'Agent' }],
    statuses: [{ id: 'END', label: 'Clos', closing: true }],
    actions: [{ id: 20, label: 'Cloturer', status: 'END', component: 'closeMailAction', ...action }],
    baskets: [
      {
        id: 'MyBasket',
        name: 'Courriers à traiter',
        clause: "status in ('NEW', 'COU') and dest_user = @user_id",
        groups: [
          {
            group: 'AGENT',
            listEvent: 'processDocument',
            actions: [{ action: 20, default: true, redirects: [{ keyword: 'MY_ENTITIES', mode: 'ENTITY' }] }],
          },
        ],
        ...basket,
      },
    ],
  }
}

const issues = (input: unknown, options = {}, known = {}) => {
  const result = validateOrganisation(input, known, options)
  return result.ok ? [] : result.issues.map((i) => `${i.path}: ${i.message}`)
}

describe('baskets and actions in the organisation document', () => {
  it('accepts a basket given to a group with its actions and redirect choices, defaults filled in', () => {
    const result = validateOrganisation(document())
    expect(result.ok).toBe(true)
    if (!result.ok) return
    expect(result.document.baskets?.[0]).toMatchObject({
      description: '',
      color: null,
      order: null,
      resOrder: 'res_id desc',
      enabled: true,
      visible: true,
      groups: [
        {
          listDisplay: [],
          listEventData: null,
          actions: [{ list: true, page: true, default: true, where: '', redirects: [{ entity: null }] }],
        },
      ],
    })
    expect(result.document.actions?.[0]).toMatchObject({ history: false, categories: [], parameters: {} })
  })

  it('refuses an unknown component, status, group, action, entity and a second default, each with its path', () => {
    const bad = document(
      {
        groups: [
          {
            group: 'NOBODY',
            actions: [
              { action: 20, default: true },
              { action: 21, default: true, redirects: [{ entity: 'NOWHERE', mode: 'USERS' }, { mode: 'ENTITY' }] },
            ],
          },
        ],
      },
      { status: 'GONE' },
    )
    expect(issues(bad)).toEqual([
      'actions[0].status: no status "GONE"',
      'baskets[0].groups[0].group: no group "NOBODY"',
      'baskets[0].groups[0].actions[1].action: no action 21',
      'baskets[0].groups[0].actions[1].default: a second default action',
      'baskets[0].groups[0].actions[1].redirects[0].entity: no entity "NOWHERE"',
      'baskets[0].groups[0].actions[1].redirects[1]: names neither an entity nor a keyword',
    ])
    expect(issues(document({}, { component: 'launchRocketAction' }))[0]).toMatch(/^actions\[0\]\.component: /)
    expect(issues(document({}, { status: '_NOSTATUS_' }))).toEqual([])
  })

  it('refuses a clause or a condition the clause language cannot take, naming the part', () => {
    expect(issues(document({ clause: COPY_CLAUSE }))).toEqual([])
    expect(issues(document({ clause: JOIN_CLAUSE }))).toEqual([expect.stringMatching(/^baskets\[0\]\.clause: /)])
    const where = document({ groups: [{ group: 'AGENT', actions: [{ action: 20, where: 'status = ' }] }] })
    expect(issues(where)).toEqual([expect.stringMatching(/^baskets\[0\]\.groups\[0\]\.actions\[0\]\.where: /)])
    // An importer carrying an installation whole, or a clause stored as it is already (an export applied back).
    expect(issues(document({ clause: JOIN_CLAUSE }), { acceptUnreadableClauses: true })).toEqual([])
    expect(issues(document({ clause: JOIN_CLAUSE }), {}, { clauses: [JOIN_CLAUSE] })).toEqual([])
  })

  it('refuses a list order that is not columns, NUL characters and duplicate codes', () => {
    expect(issues(document({ resOrder: 'res_id; drop table baskets' }))).toEqual([
      'baskets[0].resOrder: columns, each optionally followed by asc or desc, separated by commas',
    ])
    expect(issues(document({ resOrder: 'priority, process_limit_date DESC' }))).toEqual([])
    expect(issues(document({ name: 'a\u0000b' }))).toEqual(['baskets[0].name: must not contain a NUL character'])
    const twice = document()
    twice.baskets.push({ ...twice.baskets[0]! })
    expect(issues(twice)).toEqual(['baskets[1].id: duplicate basket "MyBasket" (also baskets[0])'])
  })

  it('answers any clause, list display and parameters with a document or issues, never a throw', () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 200 }),
        fc.jsonValue({ maxDepth: 4 }),
        fc.jsonValue({ maxDepth: 4 }),
        (clause, display, parameters) => {
          const input = document(
            { clause, groups: [{ group: 'AGENT', listDisplay: display, actions: [{ action: 20, where: clause }] }] },
            { parameters },
          )
          const result = validateOrganisation(input)
          expect(typeof result.ok).toBe('boolean')
        },
      ),
      { numRuns: 300 },
    )
  })
})

import { validateOrganisation } from '@mailroom/core'
import { describe, expect, it } from 'vitest'
import { type MaarchBasketRows, mapBaskets } from './map-baskets.js'

const CONTEXT = {
  groups: new Set(['AGENT', 'RESPONSABLE']),
  entities: new Set(['COU', 'DGS']),
  statuses: new Set(['NEW', 'END']),
  members: new Map([
    ['AGENT', ['bbain', 'aackermann']],
    ['RESPONSABLE', ['ppetit']],
  ]),
}
/** A clause the clause language cannot take: its sub-select reads a table outside the allow-list. */
const COPY = 'res_id in (select res_id from shippings where item_id = @user_id)'

function rows(overrides: Partial<MaarchBasketRows> = {}): MaarchBasketRows {
  return {
    baskets: [
      {
        basket_id: 'MyBasket',
        basket_name: 'Courriers à traiter',
        basket_desc: 'Bannette',
        basket_clause: " status = 'NEW' ",
        is_visible: 'Y',
        enabled: 'Y',
        basket_order: 40,
        color: null,
        basket_res_order: 'res_id desc',
      },
      {
        basket_id: 'CopyMailBasket',
        basket_name: 'Courriers en copie',
        basket_desc: '',
        basket_clause: COPY,
        is_visible: 'Y',
        enabled: 'N',
        basket_order: null,
        color: '#ff0000',
        basket_res_order: 'res_id; drop table x',
      },
    ],
    groupbasket: [
      {
        group_id: 'AGENT',
        basket_id: 'MyBasket',
        list_display: '{"templateColumns":1,"subInfos":[]}',
        list_event: 'processDocument',
        list_event_data: '{"defaultTab":"dashboard"}',
      },
      {
        group_id: 'RESPONSABLE',
        basket_id: 'CopyMailBasket',
        list_display: '[]',
        list_event: 'documentDetails',
        list_event_data: '[]',
      },
      { group_id: 'AGENT', basket_id: 'CopyMailBasket', list_display: null, list_event: '', list_event_data: null },
      {
        group_id: 'GHOSTS',
        basket_id: 'MyBasket',
        list_display: '[]',
        list_event: 'documentDetails',
        list_event_data: null,
      },
    ],
    actions: [
      {
        id: 20,
        keyword: '',
        label_action: 'Cloturer',
        id_status: 'END',
        is_system: 'N',
        action_page: 'close_mail',
        component: 'closeMailAction',
        history: 'Y',
        parameters: '{"requiredFields": []}',
      },
      {
        id: 114,
        keyword: '',
        label_action: 'Marquer comme lu',
        id_status: '',
        is_system: 'N',
        action_page: 'mark_as_read',
        component: 'resMarkAsReadAction',
        history: 'N',
        parameters: {},
      },
      {
        id: 999,
        keyword: '',
        label_action: 'Custom',
        id_status: 'NEW',
        is_system: 'N',
        action_page: null,
        component: 'myOwnAction',
        history: 'N',
        parameters: {},
      },
      {
        id: 5,
        keyword: '',
        label_action: null,
        id_status: 'GONE',
        is_system: 'N',
        action_page: null,
        component: 'confirmAction',
        history: 'Y',
        parameters: {},
      },
    ],
    actionsGroupbaskets: [
      {
        id_action: 20,
        where_clause: 'closing_date IS NULL',
        group_id: 'AGENT',
        basket_id: 'MyBasket',
        used_in_basketlist: 'N',
        used_in_action_page: 'Y',
        default_action_list: 'Y',
      },
      {
        id_action: 5,
        where_clause: null,
        group_id: 'AGENT',
        basket_id: 'MyBasket',
        used_in_basketlist: 'Y',
        used_in_action_page: 'N',
        default_action_list: 'Y',
      },
      {
        id_action: 999,
        where_clause: '',
        group_id: 'AGENT',
        basket_id: 'MyBasket',
        used_in_basketlist: 'Y',
        used_in_action_page: 'Y',
        default_action_list: 'N',
      },
      {
        id_action: 20,
        where_clause: '',
        group_id: 'RESPONSABLE',
        basket_id: 'MyBasket',
        used_in_basketlist: 'Y',
        used_in_action_page: 'Y',
        default_action_list: 'N',
      },
      {
        id_action: 114,
        where_clause: COPY,
        group_id: 'AGENT',
        basket_id: 'CopyMailBasket',
        used_in_basketlist: 'Y',
        used_in_action_page: 'N',
        default_action_list: 'N',
      },
      {
        id_action: 20,
        where_clause: '',
        group_id: 'AGENT',
        basket_id: 'GoneBasket',
        used_in_basketlist: 'Y',
        used_in_action_page: 'Y',
        default_action_list: 'N',
      },
    ],
    actionsCategories: [
      { action_id: 20, category_id: 'incoming' },
      { action_id: 20, category_id: 'fax' },
    ],
    groupbasketRedirect: [
      {
        group_id: 'AGENT',
        basket_id: 'MyBasket',
        action_id: 20,
        entity_id: '',
        keyword: 'MY_ENTITIES',
        redirect_mode: 'ENTITY',
      },
      {
        group_id: 'AGENT',
        basket_id: 'MyBasket',
        action_id: 20,
        entity_id: 'COU',
        keyword: '',
        redirect_mode: 'USERS',
      },
      {
        group_id: 'AGENT',
        basket_id: 'MyBasket',
        action_id: 20,
        entity_id: 'NOWHERE',
        keyword: '',
        redirect_mode: 'USERS',
      },
      {
        group_id: 'AGENT',
        basket_id: 'MyBasket',
        action_id: 20,
        entity_id: '',
        keyword: 'ANYWHERE',
        redirect_mode: 'ENTITY',
      },
    ],
    ...overrides,
  }
}

describe('mapping 20.10 baskets and actions to the organisation document', () => {
  const mapped = mapBaskets(rows(), CONTEXT)
  const notes = mapped.notes.map((n) => `${n.section} ${n.id}: ${n.message}`)

  it('keeps codes, ids, flags, list displays and events, links and redirect choices', () => {
    expect(mapped.actions.map((a) => a.id)).toEqual([20, 114, 5])
    expect(mapped.actions[0]).toEqual({
      id: 20,
      label: 'Cloturer',
      keyword: '',
      status: 'END',
      component: 'closeMailAction',
      history: true,
      system: false,
      actionPage: 'close_mail',
      parameters: { requiredFields: [] },
      categories: ['incoming'],
    })
    const my = mapped.baskets[0]!
    expect(my).toMatchObject({ id: 'MyBasket', clause: "status = 'NEW'", order: 40, enabled: true, visible: true })
    expect(my.groups[0]).toEqual({
      group: 'AGENT',
      listDisplay: { templateColumns: 1, subInfos: [] },
      listEvent: 'processDocument',
      listEventData: { defaultTab: 'dashboard' },
      actions: [
        {
          action: 20,
          list: false,
          page: true,
          default: true,
          where: 'closing_date IS NULL',
          redirects: [
            { entity: null, keyword: 'MY_ENTITIES', mode: 'ENTITY' },
            { entity: 'COU', keyword: null, mode: 'USERS' },
          ],
        },
        { action: 5, list: true, page: false, default: false, where: '', redirects: [] },
      ],
    })
    expect(mapped.baskets[1]?.groups.map((g) => [g.group, g.listEvent, g.listDisplay, g.listEventData])).toEqual([
      ['RESPONSABLE', 'documentDetails', [], []],
      ['AGENT', 'documentDetails', [], null],
    ])
  })

  it('notes what the document cannot hold and writes the nearest it can', () => {
    expect(notes).toEqual(
      expect.arrayContaining([
        'actions 20: category "fax" is not one of 20.10\'s: left out',
        'actions 999: component "myOwnAction" is not one of 20.10\'s: the action and its links are left out',
        'actions 5: no label: named "Action 5"',
        'actions 5: status "GONE" does not exist: the action leaves the status as it is',
        'baskets MyBasket: action 20 is linked for group RESPONSABLE, which the basket is not given to: left out',
        'baskets MyBasket: given to group "GHOSTS", which does not exist: left out',
        'baskets MyBasket: group AGENT: a second default action (5) is not the default',
        'baskets MyBasket: group AGENT: action 999 does not exist (or was left out): its link is left out',
        'baskets MyBasket: group AGENT, action 20: redirect choice "NOWHERE" names no entity: left out',
        'baskets MyBasket: group AGENT, action 20: redirect choice "ANYWHERE" is not a keyword of 20.10: left out',
        'baskets CopyMailBasket: list order "res_id; drop table x" is not a list of columns: res_id desc',
        'baskets GoneBasket: a row of actions_groupbaskets for group AGENT names no basket: left out',
      ]),
    )
    expect(mapped.actions.find((a) => a.id === 5)?.status).toBe('_NOSTATUS_')
  })

  it('keeps an unreadable clause as it is and reports who misses what, for the clause and a condition', () => {
    expect(mapped.baskets[1]?.clause).toBe(COPY)
    expect(mapped.unreadable).toEqual([
      {
        basket: 'CopyMailBasket',
        name: 'Courriers en copie',
        part: 'clause',
        clause: COPY,
        problem: expect.stringContaining('unknown table "shippings"'),
        groups: ['RESPONSABLE', 'AGENT'],
        users: ['aackermann', 'bbain', 'ppetit'],
        consequence:
          'groups RESPONSABLE, AGENT (aackermann, bbain, ppetit) will see the basket "Courriers en copie" empty until the clause can be read',
      },
      expect.objectContaining({
        basket: 'CopyMailBasket',
        part: 'action 114 for group AGENT',
        groups: ['AGENT'],
        users: ['aackermann', 'bbain'],
        consequence:
          'group AGENT (aackermann, bbain) will not be offered action 114 in "Courriers en copie" until its condition can be read',
      }),
    ])
    expect(notes.filter((n) => n.includes('the clause language cannot take it'))).toHaveLength(2)
  })

  it('gives a document the organisation accepts with the import option, and refuses without it', () => {
    const document = {
      version: 1,
      groups: [...CONTEXT.groups].map((id) => ({ id, label: id })),
      entities: [...CONTEXT.entities].map((id) => ({ id, label: id, shortLabel: id, type: 'Service' })),
      statuses: [...CONTEXT.statuses].map((id) => ({ id, label: id })),
      actions: mapped.actions,
      baskets: mapped.baskets,
    }
    expect(validateOrganisation(document, {}, { acceptUnreadableClauses: true }).ok).toBe(true)
    expect(validateOrganisation(document).ok).toBe(false)
  })
})

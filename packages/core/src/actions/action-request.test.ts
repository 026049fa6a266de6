import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { isDomainError } from '../errors/domain-error.js'
import { componentStanding, MAARCH_ACTION_COMPONENTS, SUPPORTED_ACTION_COMPONENTS } from './action-components.js'
import { parseActionRequest, parseActionResources } from './action-request.js'
import { parseRedirectData } from './redirect-data.js'
import { actionHistory, statusSetBy } from './run-action.js'

const codeOf = (run: () => unknown): string | null => {
  try {
    run()
    return null
  } catch (error) {
    if (!isDomainError(error)) throw error
    return error.code
  }
}

describe('parseActionRequest', () => {
  it('takes the web client’s bodies: ids as numbers or digits, deduplicated, an empty note and data', () => {
    expect(parseActionRequest({ resources: [24, '24', '25'], note: { content: '', entities: [] }, data: [] })).toEqual({
      resources: [24, 25],
      note: null,
      data: {},
    })
    expect(parseActionRequest({ resources: [1], note: { content: 'Vu', entities: ['PJS', 'PJS'] } }).note).toEqual({
      content: 'Vu',
      entities: ['PJS'],
    })
  })

  it('refuses each malformed part with its own code', () => {
    expect(codeOf(() => parseActionRequest(null))).toBe('ACTION_RESOURCES_INVALID')
    expect(codeOf(() => parseActionRequest({ resources: [] }))).toBe('ACTION_RESOURCES_INVALID')
    expect(codeOf(() => parseActionRequest({ resources: [{ id: 1 }] }))).toBe('ACTION_RESOURCE_INVALID')
    expect(codeOf(() => parseActionRequest({ resources: Array(501).fill(1) }))).toBe('ACTION_TOO_MANY_RESOURCES')
    expect(codeOf(() => parseActionRequest({ resources: [1], note: 'x' }))).toBe('ACTION_NOTE_INVALID')
    expect(codeOf(() => parseActionRequest({ resources: [1], note: { content: 1 } }))).toBe('ACTION_NOTE_INVALID')
    expect(codeOf(() => parseActionRequest({ resources: [1], data: 'x' }))).toBe('ACTION_DATA_INVALID')
    expect(codeOf(() => parseActionResources({ resources: 'x' }, 'ACTION_CHECK_RESOURCES_INVALID'))).toBe(
      'ACTION_CHECK_RESOURCES_INVALID',
    )
  })

  it('any value either parses to ids the database can hold or is refused with a catalogue code, never thrown raw', () => {
    fc.assert(
      fc.property(fc.anything(), fc.anything(), fc.anything(), (resources, note, data) => {
        try {
          const request = parseActionRequest({ resources, note, data })
          expect(request.resources.length).toBeGreaterThan(0)
          for (const id of request.resources) expect(Number.isSafeInteger(id) && id > 0).toBe(true)
          expect(new Set(request.resources).size).toBe(request.resources.length)
        } catch (error) {
          expect(isDomainError(error)).toBe(true)
        }
      }),
    )
  })
})

describe('components', () => {
  it('knows every 20.10 component by name and runs only the supported ones', () => {
    expect(MAARCH_ACTION_COMPONENTS).toHaveLength(37)
    for (const name of SUPPORTED_ACTION_COMPONENTS) expect(componentStanding(name)).toBe(name)
    expect(componentStanding('sendSignatureBookAction')).toBe('unsupported')
    expect(componentStanding('createAcknowledgementReceiptsAction')).toBe('unsupported')
    expect(componentStanding('frobnicate')).toBe('unknown')
    expect(componentStanding(null)).toBe('missing')
    expect(componentStanding('')).toBe('missing')
  })

  it('redirect’s data: items checked, onlyRedirectDest only with one item, hostile values refused', () => {
    expect(
      parseRedirectData({
        destination: 7,
        onlyRedirectDest: true,
        listInstances: [{ item_id: 15, item_type: 'user', item_mode: 'dest' }],
      }),
    ).toEqual({
      destination: '7',
      onlyRedirectDest: true,
      items: [{ itemId: '15', itemType: 'user_id', itemMode: 'dest', viewed: 0 }],
    })
    const two = parseRedirectData({
      onlyRedirectDest: true,
      listInstances: [
        { item_id: 'a', item_type: 'user_id', item_mode: 'dest' },
        { item_id: 'PJS', item_type: 'entity_id', item_mode: 'cc' },
      ],
    })
    expect(two.onlyRedirectDest).toBe(false)
    for (const listInstances of [
      'x',
      [null],
      [{ item_id: 'a\u0000', item_type: 'user_id', item_mode: 'dest' }],
      [{ item_id: 'a', item_type: 'team', item_mode: 'dest' }],
      [{ item_id: 'a', item_type: 'user_id', item_mode: "dest'; drop table x" }],
      [{ item_id: 'x'.repeat(256), item_type: 'user_id', item_mode: 'dest' }],
    ])
      expect(codeOf(() => parseRedirectData({ listInstances }))).toBe('ACTION_REDIRECT_DATA_INVALID')
  })
})

describe('what an action writes', () => {
  const action = {
    id: 20,
    label: 'Clôturer',
    statusId: 'END',
    history: true,
    component: 'closeMailAction',
    parameters: {},
  }

  it('the status: successStatus first, none for _NOSTATUS_', () => {
    expect(statusSetBy(action)).toBe('END')
    expect(statusSetBy({ ...action, parameters: { successStatus: 'COU' } })).toBe('COU')
    expect(statusSetBy({ ...action, statusId: '_NOSTATUS_' })).toBeNull()
    expect(statusSetBy({ ...action, statusId: null })).toBeNull()
  })

  it('the history line as 20.10 words it, or none', () => {
    expect(actionHistory(action, 'Courriers à traiter')).toEqual({
      tableName: 'res_letterbox',
      eventType: 'ACTION#20',
      eventId: '20',
      module: 'resource',
      info: 'Courriers à traiter : Clôturer',
    })
    expect(actionHistory({ ...action, history: false }, 'Courriers à traiter')).toBeNull()
  })
})

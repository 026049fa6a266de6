import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestServer, type TestServer } from '../../../testing/src/index.js'

let s: TestServer
beforeAll(async () => {
  s = await startTestServer()
})
afterAll(async () => s?.close())

describe('GET /rest/entities/{id}', () => {
  it('answers the entity with exactly the interface fields', async () => {
    const r = await s.call('GET', '/rest/entities/PJS', { auth: 'bbain:maarch' })
    expect(r.status).toBe(200)
    expect(r.json).toEqual({
      entity: {
        entity_id: 'PJS',
        entity_label: 'Pôle Jeunesse et Sport',
        short_label: 'PJS',
        entity_type: 'Service',
        enabled: 'Y',
        adrs_1: null,
        adrs_2: null,
        adrs_3: null,
        zipcode: null,
        city: null,
        country: null,
        email: null,
        business_id: null,
        parent_entity_id: 'DGS',
        ldap_id: null,
        archival_agency: null,
        archival_agreement: null,
        entity_full_name: 'Ville de Maarch-les-Bains / Direction Générale des Services / Pôle Jeunesse et Sport',
      },
    })
  })

  it('shows the top entity with its address and business id', async () => {
    const r = await s.call('GET', '/rest/entities/VILLE')
    expect(r.json.entity).toMatchObject({
      business_id: '21750001600019',
      city: 'Maarch-les-Bains',
      zipcode: '99000',
      parent_entity_id: null,
      entity_full_name: 'Ville de Maarch-les-Bains',
    })
  })

  it('looks integer ids up as the reference clients send them', async () => {
    const r = await s.call('GET', '/rest/entities/6')
    expect(r.status).toBe(200)
    expect(r.json.entity.entity_id).toBe('PJS')
  })

  it('answers 400 Entity not found', async () => {
    for (const id of ['NOPE', '999', 'pjs']) {
      const r = await s.call('GET', `/rest/entities/${id}`)
      expect([r.status, r.json]).toEqual([400, { errors: 'Entity not found' }])
    }
  })

  it('refuses an id longer than 32 characters with 400', async () => {
    const r = await s.call('GET', `/rest/entities/${'A'.repeat(33)}`)
    expect(r.status).toBe(400)
    expect(r.json).toEqual({ errors: 'Parameter id must be a non-empty string of at most 32 characters' })
    expect((await s.call('GET', `/rest/entities/${'A'.repeat(32)}`)).json).toEqual({ errors: 'Entity not found' })
  })

  it('tolerates duplicate slashes and a trailing slash in the path', async () => {
    expect((await s.call('GET', '/rest//entities/PJS')).status).toBe(200)
    expect((await s.call('GET', '/rest/entities/PJS/')).status).toBe(200)
  })

  it('lets any authenticated user read any entity (no perimeter on entities)', async () => {
    expect((await s.call('GET', '/rest/entities/DRH', { auth: 'ddur:maarch' })).status).toBe(200)
    expect((await s.call('GET', '/rest/entities/CAB', { auth: 'cchaplin:maarch' })).status).toBe(200)
  })
})

import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { isDomainError } from '../errors/domain-error.js'
import { checkContactBody, isSiret } from './check-contact-body.js'
import { CONTACT_TEXT_FIELDS } from './contact.js'

/** The message a body is refused with, or null when it is accepted. */
function refusal(body: unknown, use: 'create' | 'update' = 'create'): string | null {
  try {
    checkContactBody(body, use)
    return null
  } catch (error) {
    if (!isDomainError(error)) throw error
    expect(error.kind).toBe('bad-request')
    return error.message
  }
}

describe('checkContactBody (Maarch 20.10 controlContact)', () => {
  it('checks in 20.10 order with its messages', () => {
    expect(refusal(null)).toBe('Body is not set or empty')
    expect(refusal({})).toBe('Body is not set or empty')
    expect(refusal({ firstname: 'x' })).toBe('Body lastname or company is mandatory')
    expect(refusal({ lastname: '   ' })).toBe('Body lastname or company is mandatory')
    expect(refusal({ lastname: 12 })).toBe('Body lastname or company is mandatory')
    expect(refusal({ lastname: 'x', email: 'nope', phone: 'nope' })).toBe('Body email is not valid')
    expect(refusal({ lastname: 'x', phone: 'nope', civility: 1 })).toBe('Body phone is not valid')
    expect(refusal({ lastname: 'x', civility: 1 })).toBe('Body civility length is not valid (1..256)')
    expect(refusal({ lastname: 'x', customFields: 'a' })).toBe('Body customFields is not an array')
    expect(refusal({ lastname: 'x', customFields: { 1: 'a' } })).toBe(
      'Body customFields : One or more custom fields do not exist',
    )
    expect(refusal({ lastname: 'x', externalId: { m2m: '123/ABC' } })).toBe(
      "L'identifiant Maarch2Maarch doit être au format SIRET/entityId",
    )
    expect(refusal({ lastname: 'x', communicationMeans: { email: 'a@b.org' } })).toBe(
      'Le moyen de communication doit être une uri ou un courriel',
    )
    expect(refusal({ lastname: 'x', communicationMeans: 'nothing' }, 'update')).toBeNull()
  })

  it('keeps what it accepts, and every field left out becomes null', () => {
    const values = checkContactBody(
      { company: 'Alpha', phone: '+33 (0)1-02.03', communicationMeans: 'a@b.org', externalId: 'abc' },
      'create',
    )
    expect(values).toMatchObject({
      company: 'Alpha',
      lastname: null,
      phone: '+33 (0)1-02.03',
      communicationMeans: { email: 'a@b.org' },
      customFields: {},
      externalId: {},
    })
    expect(checkContactBody({ company: 'Alpha' }, 'update').customFields).toBeNull()
    expect(isSiret('21750001600019')).toBe(true)
    expect(isSiret('21750001600018')).toBe(false)
  })

  it('accepts any body with a name and text fields of 1 to 256 characters', () => {
    const field = fc.constantFrom(...CONTACT_TEXT_FIELDS.filter((f) => f !== 'email' && f !== 'phone'))
    fc.assert(
      fc.property(
        fc.string({ minLength: 1, maxLength: 256 }).filter((s) => s.trim() !== '' && s.trim() !== '0'),
        fc.dictionary(field, fc.string({ minLength: 1, maxLength: 256 })),
        (lastname, others) => {
          const body = { ...others, lastname }
          const values = checkContactBody(body, 'create')
          for (const [key, value] of Object.entries(body)) expect(values[key as 'lastname']).toBe(value)
        },
      ),
    )
  })

  it('refuses any text field over 256 characters, naming it, whatever else the body holds', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...CONTACT_TEXT_FIELDS.filter((f) => f !== 'email' && f !== 'phone')),
        fc.integer({ min: 257, max: 10_000 }),
        (field, length) => {
          const body = { lastname: 'Nom', company: 'Société', [field]: 'x'.repeat(length) }
          expect(refusal(body)).toBe(`Body ${field} length is not valid (1..256)`)
        },
      ),
    )
  })

  it('never throws anything but a catalogue error, whatever JSON it is given', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.constantFrom('create' as const, 'update' as const), (body, use) => {
        refusal(body, use)
      }),
    )
    fc.assert(
      fc.property(
        fc.dictionary(fc.constantFrom(...CONTACT_TEXT_FIELDS, 'notes', 'externalId', 'customFields'), fc.jsonValue()),
        (body) => {
          refusal({ lastname: 'x', ...body })
        },
      ),
    )
  })

  it('checks a long phone number in linear time (the 20.10 pattern backtracks without end in JavaScript)', () => {
    expect(refusal({ lastname: 'x', phone: `${'1'.repeat(100_000)}x` })).toBe('Body phone is not valid')
  })
})

import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { forceDisabledFields } from './force-disabled-fields.js'
import { parseLooseDate, startOfUtcDay } from './parse-loose-date.js'
import type { DisabledModelField } from './ports.js'

const context = { today: new Date('2024-02-29T23:59:59.999Z'), primaryEntityId: 6 }
const field = (identifier: string, defaultValue: unknown): DisabledModelField => ({ identifier, defaultValue })

describe('forceDisabledFields', () => {
  it('overwrites the body values of disabled fields with their defaults', () => {
    const body = { modelId: 1, status: 'NEW', subject: 'Client subject', doctype: 101, priority: 'x' }
    const forced = forceDisabledFields(
      body,
      [field('subject', 'Model subject'), field('doctype', 103), field('tags', [1, 2])],
      context,
    )
    expect(forced).toEqual({
      modelId: 1,
      status: 'NEW',
      subject: 'Model subject',
      doctype: 103,
      priority: 'x',
      tags: [1, 2],
    })
  })

  it('writes _TODAY as the UTC day in d-m-Y form, from the clock it is given', () => {
    expect(forceDisabledFields({}, [field('documentDate', '_TODAY')], context)).toEqual({ documentDate: '29-02-2024' })
    const early = { ...context, today: new Date('0987-01-05T00:00:00Z') }
    expect(forceDisabledFields({}, [field('arrivalDate', '_TODAY')], early)).toEqual({ arrivalDate: '05-01-0987' })
  })

  it('writes #myPrimaryEntity as the primary entity id, or null when the actor has none', () => {
    expect(forceDisabledFields({ destination: 3 }, [field('destination', '#myPrimaryEntity')], context)).toEqual({
      destination: 6,
    })
    expect(
      forceDisabledFields({ destination: 3 }, [field('destination', '#myPrimaryEntity')], {
        ...context,
        primaryEntityId: null,
      }),
    ).toEqual({ destination: null })
  })

  it('puts indexingCustomField_N into customFields[N], keeping the other custom fields', () => {
    const body = { customFields: { '1': 'client', '2': 'kept' } }
    const forced = forceDisabledFields(
      body,
      [field('indexingCustomField_1', 'model'), field('indexingCustomField_3', '_TODAY')],
      context,
    )
    expect(forced).toEqual({ customFields: { '1': 'model', '2': 'kept', '3': '29-02-2024' } })
    expect(forceDisabledFields({}, [field('indexingCustomField_2', 'v')], context)).toEqual({
      customFields: { '2': 'v' },
    })
    expect(forceDisabledFields({ customFields: '' }, [field('indexingCustomField_2', 'v')], context)).toEqual({
      customFields: { '2': 'v' },
    })
    // A JSON list is keyed by index, as PHP reads it.
    expect(forceDisabledFields({ customFields: ['a', 'b'] }, [field('indexingCustomField_3', 'v')], context)).toEqual({
      customFields: { '0': 'a', '1': 'b', '3': 'v' },
    })
  })

  it('leaves a customFields that is neither a map nor a list for its check to refuse', () => {
    expect(
      forceDisabledFields({ customFields: 'x' }, [field('indexingCustomField_2', 'v'), field('subject', 's')], context),
    ).toEqual({ customFields: 'x', subject: 's' })
  })

  it('never forces initiator', () => {
    expect(forceDisabledFields({ initiator: 4 }, [field('initiator', 7)], context)).toEqual({ initiator: 4 })
    expect(forceDisabledFields({}, [field('initiator', '#myPrimaryEntity')], context)).toEqual({})
  })

  it('overwrites with a null default: the field then counts as absent', () => {
    expect(
      forceDisabledFields(
        { subject: 'Client', customFields: { '1': 'c' } },
        [field('subject', null), field('indexingCustomField_1', null)],
        context,
      ),
    ).toEqual({
      subject: null,
      customFields: { '1': null },
    })
  })

  it('compares the special defaults strictly (the reference also turned 0 and true into today)', () => {
    expect(
      forceDisabledFields(
        {},
        [field('confidentiality', true), field('priority', 0), field('subject', '_today')],
        context,
      ),
    ).toEqual({
      confidentiality: true,
      priority: 0,
      subject: '_today',
    })
  })

  it('makes an identifier such as __proto__ a plain key, never a prototype', () => {
    const forced = forceDisabledFields({}, [field('__proto__', { polluted: true })], context)
    expect(Object.getPrototypeOf(forced)).toBe(Object.prototype)
    expect(Object.hasOwn(forced, '__proto__')).toBe(true)
    expect((forced as { polluted?: unknown }).polluted).toBeUndefined()
  })

  it('returns the body itself when the model disables nothing', () => {
    const body = { modelId: 1 }
    expect(forceDisabledFields(body, [], context)).toBe(body)
  })
})

describe('forceDisabledFields properties', () => {
  const key = fc.constantFrom(
    'subject',
    'doctype',
    'destination',
    'initiator',
    'documentDate',
    'priority',
    'customFields',
    'tags',
    'status',
    'x',
  )
  const identifier = fc.oneof(
    key,
    fc.integer({ min: 1, max: 5 }).map((n) => `indexingCustomField_${n}`),
  )
  const defaultValue = fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.constantFrom('_TODAY', '#myPrimaryEntity'))
  const fields = fc.array(fc.record({ identifier, defaultValue }), { maxLength: 8 })
  const body = fc.dictionary(key, fc.jsonValue({ maxDepth: 2 }), { maxKeys: 8 })
  const contexts = fc.record({
    today: fc.date({
      min: new Date('1000-01-01T00:00:00Z'),
      max: new Date('9999-12-31T23:59:59Z'),
      noInvalidDate: true,
    }),
    primaryEntityId: fc.option(fc.integer({ min: 1, max: 2_147_483_647 })),
  })

  it('gives each forced identifier the last default the model lists for it, and changes nothing else', () => {
    fc.assert(
      fc.property(body, fields, contexts, (b, fs, ctx) => {
        const forced = forceDisabledFields(b, fs, ctx)
        const top = fs.filter((f) => f.identifier !== 'initiator' && !f.identifier.startsWith('indexingCustomField_'))
        for (const key of new Set([...Object.keys(b), ...top.map((f) => f.identifier)])) {
          const last = top.findLast((f) => f.identifier === key)
          if (key === 'customFields' && fs.some((f) => f.identifier.startsWith('indexingCustomField_'))) continue
          if (last === undefined) expect(forced[key]).toEqual(b[key])
          else if (last.defaultValue === '_TODAY') expect(forced[key]).toMatch(/^\d{2}-\d{2}-\d{4}$/)
          else if (last.defaultValue === '#myPrimaryEntity') expect(forced[key]).toBe(ctx.primaryEntityId)
          else expect(forced[key]).toEqual(last.defaultValue)
        }
      }),
    )
  })

  it('never touches initiator and never changes the body it is given', () => {
    fc.assert(
      fc.property(body, fields, contexts, (b, fs, ctx) => {
        const before = structuredClone(b)
        const forced = forceDisabledFields(b, fs, ctx)
        expect(b).toEqual(before)
        expect(Object.hasOwn(forced, 'initiator')).toBe(Object.hasOwn(b, 'initiator'))
        expect(forced.initiator).toEqual(b.initiator)
      }),
    )
  })

  it('is idempotent: forcing twice is forcing once', () => {
    fc.assert(
      fc.property(body, fields, contexts, (b, fs, ctx) => {
        const once = forceDisabledFields(b, fs, ctx)
        expect(forceDisabledFields(once, fs, ctx)).toEqual(once)
      }),
    )
  })

  it('writes _TODAY as a date the create checks read back as that UTC day', () => {
    fc.assert(
      fc.property(contexts, (ctx) => {
        const forced = forceDisabledFields(
          {},
          [field('documentDate', '_TODAY'), field('indexingCustomField_2', '_TODAY')],
          ctx,
        )
        const day = startOfUtcDay(ctx.today).toISOString()
        expect(parseLooseDate(String(forced.documentDate))?.toISOString()).toBe(day)
        expect(parseLooseDate(String((forced.customFields as Record<string, unknown>)['2']))?.toISOString()).toBe(day)
      }),
    )
  })

  it('sends every indexingCustomField_N into customFields when customFields is a map, never to the top level', () => {
    fc.assert(
      fc.property(
        fc.dictionary(fc.constantFrom('1', '2', '7'), fc.jsonValue({ maxDepth: 1 })),
        fields,
        contexts,
        (custom, fs, ctx) => {
          const forced = forceDisabledFields({ customFields: custom }, fs, ctx)
          expect(Object.keys(forced).filter((k) => k.startsWith('indexingCustomField_'))).toEqual([])
          const customFields = fs.some((f) => f.identifier === 'customFields')
            ? null
            : (forced.customFields as Record<string, unknown>)
          if (customFields === null) return
          for (const f of fs.filter((f) => f.identifier.startsWith('indexingCustomField_'))) {
            expect(Object.hasOwn(customFields, f.identifier.slice('indexingCustomField_'.length))).toBe(true)
          }
          for (const [k, v] of Object.entries(custom))
            if (!fs.some((f) => f.identifier === `indexingCustomField_${k}`)) expect(customFields[k]).toEqual(v)
        },
      ),
    )
  })
})

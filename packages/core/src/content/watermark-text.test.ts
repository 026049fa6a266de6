import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { DEFAULT_WATERMARK_OPTIONS, parseWatermarkSettings, renderWatermarkText } from './watermark-text.js'

const now = new Date('2024-03-05T07:09:30Z')

describe('renderWatermarkText', () => {
  it('renders the shipped template', () => {
    const text = renderWatermarkText(DEFAULT_WATERMARK_OPTIONS.text, {
      record: { alt_identifier: 'MAARCH/2024A/12' },
      now,
    })
    expect(text).toBe('Copie conforme de MAARCH/2024A/12 le 05-03-2024 07:09')
  })

  it('writes date and hour in the given time zone', () => {
    expect(renderWatermarkText('[date_now] [hour_now]', { record: {}, now, timeZone: 'Europe/Paris' })).toBe(
      '05-03-2024 08:09',
    )
    expect(
      renderWatermarkText('[date_now] [hour_now]', {
        record: {},
        now: new Date('2024-12-31T23:30:00Z'),
        timeZone: 'Europe/Paris',
      }),
    ).toBe('01-01-2025 00:30')
  })

  it('renders missing and null columns as empty, numbers and dates as text', () => {
    const record = { status: 'COU', res_id: 101, subject: null, doc_date: new Date('2024-01-02T03:04:05Z') }
    expect(renderWatermarkText('[status]/[res_id]/[subject]/[nope]/[doc_date]', { record, now })).toBe(
      'COU/101///2024-01-02 03:04:05',
    )
  })

  it('does not look up inherited properties', () => {
    expect(renderWatermarkText('[constructor][toString]', { record: {}, now })).toBe('')
  })

  it('leaves text without placeholders unchanged', () => {
    fc.assert(
      fc.property(
        fc.string().filter((s) => !s.includes('[')),
        (s) => renderWatermarkText(s, { record: {}, now }) === s,
      ),
    )
  })
})

describe('parseWatermarkSettings', () => {
  it('gives the reference defaults when nothing is set', () => {
    expect(parseWatermarkSettings({})).toEqual(DEFAULT_WATERMARK_OPTIONS)
    expect(DEFAULT_WATERMARK_OPTIONS).toMatchObject({
      x: 30,
      y: 35,
      angle: 0,
      opacity: 0.5,
      fontSize: 10,
      color: [20, 192, 30],
    })
  })

  it('reads the features.xml string shapes', () => {
    expect(
      parseWatermarkSettings({
        enabled: 'false',
        position: '10, 20,45,0.25',
        font: 'Courier,12',
        textColor: '192,192,192',
        text: 'X',
      }),
    ).toEqual({
      enabled: false,
      text: 'X',
      x: 10,
      y: 20,
      angle: 45,
      opacity: 0.25,
      fontFamily: 'courier',
      fontSize: 12,
      color: [192, 192, 192],
    })
  })

  it('refuses malformed values naming the key', () => {
    expect(() => parseWatermarkSettings({ position: '30,35,0' })).toThrow(
      /Watermark configuration is not valid: position/,
    )
    expect(() => parseWatermarkSettings({ position: '30,35,0,2' })).toThrow(/position/)
    expect(() => parseWatermarkSettings({ position: '30,,0,0.5' })).toThrow(/position/)
    expect(() => parseWatermarkSettings({ textColor: '256,0,0' })).toThrow(/textColor/)
    expect(() => parseWatermarkSettings({ font: 'helvetica' })).toThrow(/font/)
    expect(() => parseWatermarkSettings({ enabled: 'maybe' })).toThrow(/enabled/)
  })

  it('round-trips any valid position', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -1000, max: 1000 }),
        fc.integer({ min: -1000, max: 1000 }),
        fc.integer({ min: -360, max: 360 }),
        fc.integer({ min: 0, max: 100 }),
        (x, y, angle, pct) => {
          const o = parseWatermarkSettings({ position: `${x},${y},${angle},${pct / 100}` })
          expect([o.x, o.y, o.angle, o.opacity]).toEqual([x, y, angle, pct / 100])
        },
      ),
    )
  })
})

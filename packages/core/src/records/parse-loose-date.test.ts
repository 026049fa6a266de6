import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { isoDay, parseLooseDate, startOfUtcDay } from './parse-loose-date.js'

const pad = (n: number, width = 2) => String(n).padStart(width, '0')
const instant = fc.date({
  min: new Date('1000-01-01T00:00:00Z'),
  max: new Date('9999-12-31T23:59:59Z'),
  noInvalidDate: true,
})

describe('parseLooseDate', () => {
  it('reads every form real clients send (B8.7)', () => {
    expect(parseLooseDate('15-10-2020')?.toISOString()).toBe('2020-10-15T00:00:00.000Z')
    expect(parseLooseDate('2020-10-15')?.toISOString()).toBe('2020-10-15T00:00:00.000Z')
    expect(parseLooseDate('2019-01-01 17:18:47')?.toISOString()).toBe('2019-01-01T17:18:47.000Z')
    expect(parseLooseDate('2021-03-15 10:22:33.123456')?.toISOString()).toBe('2021-03-15T10:22:33.123Z')
    expect(parseLooseDate('2021-03-15 10:22:33+01:00')?.toISOString()).toBe('2021-03-15T09:22:33.000Z')
    expect(parseLooseDate('2026-07-30T12:20:27.764000Z')?.toISOString()).toBe('2026-07-30T12:20:27.764Z')
    expect(parseLooseDate('2024-05-14 00:00:00')?.toISOString()).toBe('2024-05-14T00:00:00.000Z')
    expect(parseLooseDate(' 2024-05-14T08:30-0230 ')?.toISOString()).toBe('2024-05-14T11:00:00.000Z')
  })

  it('refuses impossible dates and other forms', () => {
    for (const text of [
      '',
      'now',
      '+1 day',
      '2021-02-29',
      '31-04-2020',
      '2020-13-01',
      '2020-00-10',
      '2020-01-01 24:00:00',
      '2020-01-01 10:60',
      '2020-1-1',
      '15/10/2020',
      '2020-01-01T10:00:00+15:00',
      '2020-01-01Z',
      '20200101',
      'October 15 2020',
    ]) {
      expect(parseLooseDate(text), text).toBeNull()
    }
    expect(parseLooseDate('2024-02-29')?.toISOString()).toBe('2024-02-29T00:00:00.000Z')
    expect(parseLooseDate('2000-02-29')).not.toBeNull()
    expect(parseLooseDate('1900-02-29')).toBeNull()
  })

  it('round-trips every instant written as YYYY-MM-DD HH:MM:SS.mmm in UTC', () => {
    fc.assert(
      fc.property(instant, (d) => {
        const text = `${isoDay(d)} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}.${pad(d.getUTCMilliseconds(), 3)}`
        expect(parseLooseDate(text)?.getTime()).toBe(d.getTime())
      }),
    )
  })

  it('reads DD-MM-YYYY day first, the same day as YYYY-MM-DD', () => {
    fc.assert(
      fc.property(instant, (d) => {
        const [y, m, day] = isoDay(d).split('-')
        expect(parseLooseDate(`${day}-${m}-${y}`)?.getTime()).toBe(parseLooseDate(`${y}-${m}-${day}`)?.getTime())
      }),
    )
  })

  it('applies offsets: local time minus offset is the UTC instant', () => {
    fc.assert(
      fc.property(instant, fc.integer({ min: -14 * 60, max: 14 * 60 }), (d, offset) => {
        const local = new Date(d.getTime() + offset * 60_000)
        if (local.getUTCFullYear() < 1000 || local.getUTCFullYear() > 9999) return
        const sign = offset < 0 ? '-' : '+'
        const abs = Math.abs(offset)
        const text = `${local.toISOString().slice(0, 23)}${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`
        expect(parseLooseDate(text)?.getTime()).toBe(d.getTime())
      }),
    )
  })

  it('never throws, whatever the text', () => {
    fc.assert(fc.property(fc.string(), (s) => void parseLooseDate(s)))
  })

  it('gives UTC day boundaries', () => {
    const now = new Date('2026-03-31T23:30:00Z')
    expect(startOfUtcDay(now).toISOString()).toBe('2026-03-31T00:00:00.000Z')
    expect(startOfUtcDay(now, 1).toISOString()).toBe('2026-04-01T00:00:00.000Z')
  })
})

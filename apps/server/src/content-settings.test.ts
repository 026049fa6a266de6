import { DEFAULT_WATERMARK_OPTIONS } from '@mailroom/core'
import { describe, expect, it } from 'vitest'
import { ConfigError } from './config-error.js'
import { loadContentSettings } from './content-settings.js'

describe('loadContentSettings', () => {
  it('gives the reference watermark, Europe/Paris, 16 MiB and two reading threads by default', () => {
    expect(loadContentSettings({})).toEqual({
      watermark: DEFAULT_WATERMARK_OPTIONS,
      timeZone: 'Europe/Paris',
      verifyBeforeSendMaxBytes: 16 * 1024 * 1024,
      readThreads: 2,
    })
  })

  it('reads every variable', () => {
    const settings = loadContentSettings({
      MAILROOM_WATERMARK_ENABLED: 'false',
      MAILROOM_WATERMARK_TEXT: '[status] [date_now]',
      MAILROOM_WATERMARK_POSITION: '10,20,45,0.3',
      MAILROOM_WATERMARK_FONT: 'courier,14',
      MAILROOM_WATERMARK_COLOR: '1,2,3',
      MAILROOM_TIMEZONE: 'UTC',
      MAILROOM_CONTENT_VERIFY_BYTES: '1024',
      MAILROOM_CONTENT_READ_THREADS: '0',
    })
    expect(settings).toEqual({
      watermark: {
        enabled: false,
        text: '[status] [date_now]',
        x: 10,
        y: 20,
        angle: 45,
        opacity: 0.3,
        fontFamily: 'courier',
        fontSize: 14,
        color: [1, 2, 3],
      },
      timeZone: 'UTC',
      verifyBeforeSendMaxBytes: 1024,
      readThreads: 0,
    })
  })

  it('stops start-up on malformed values, naming them', () => {
    expect(() => loadContentSettings({ MAILROOM_WATERMARK_POSITION: '1,2' })).toThrow(ConfigError)
    expect(() => loadContentSettings({ MAILROOM_WATERMARK_POSITION: '1,2' })).toThrow(/position/)
    expect(() => loadContentSettings({ MAILROOM_TIMEZONE: 'Mars/Olympus' })).toThrow(/MAILROOM_TIMEZONE/)
    expect(() => loadContentSettings({ MAILROOM_CONTENT_VERIFY_BYTES: '-1' })).toThrow(/MAILROOM_CONTENT_VERIFY_BYTES/)
    for (const bad of ['-1', '1.5', 'two', '65']) {
      expect(() => loadContentSettings({ MAILROOM_CONTENT_READ_THREADS: bad })).toThrow(/MAILROOM_CONTENT_READ_THREADS/)
    }
  })
})

import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DEFAULT_WATERMARK_OPTIONS } from '@mailroom/core'
import { describe, expect, it } from 'vitest'
import { readSample } from '../../../packages/testing/src/fixtures/files/index.js'
import { ConfigError } from './config-error.js'
import { createContentRuntime, loadContentSettings, loadConversionSettings } from './content-settings.js'

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

describe('the office conversion time limit', () => {
  it('is 30 s unless MAILROOM_CONVERSION_TIMEOUT_SECONDS says otherwise, within 1 s to an hour', () => {
    expect(loadConversionSettings({})).toEqual({ baseTimeoutMs: 30_000 })
    expect(loadConversionSettings({ MAILROOM_CONVERSION_TIMEOUT_SECONDS: '240' })).toEqual({ baseTimeoutMs: 240_000 })
    for (const bad of ['0', '3601', '1.5', '30s']) {
      expect(() => loadConversionSettings({ MAILROOM_CONVERSION_TIMEOUT_SECONDS: bad })).toThrow(
        `MAILROOM_CONVERSION_TIMEOUT_SECONDS must be an integer from 1 to 3600, got "${bad}"`,
      )
    }
  })

  it("stops a conversion at the setting's limit and answers Conversion error, not later", async () => {
    const folder = mkdtempSync(join(tmpdir(), 'mailroom-conversion-limit-'))
    // A stand-in soffice that would take 300 s: only the limit can end the conversion.
    const soffice = join(folder, 'stuck-soffice.sh')
    writeFileSync(soffice, '#!/bin/sh\nsleep 300 & wait\n')
    chmodSync(soffice, 0o755)
    const runtime = createContentRuntime(undefined, {
      ...loadConversionSettings({ MAILROOM_CONVERSION_TIMEOUT_SECONDS: '1' }),
      sofficePath: soffice,
      mode: 'process',
      workDir: folder,
      timeoutPer100KbMs: 0,
    })
    try {
      const started = Date.now()
      await expect(runtime.converter.convert({ bytes: readSample('sample.docx'), format: 'docx' })).rejects.toThrow(
        'Conversion error : LibreOffice did not finish within 1000 ms and was stopped',
      )
      expect(Date.now() - started).toBeLessThan(30_000)
    } finally {
      await runtime.close()
      rmSync(folder, { recursive: true, force: true })
    }
  })
})

import { type ConversionObserver, isDomainError, type PdfConverter, parseWatermarkSettings } from '@mailroom/core'
import {
  type ContentSettings,
  ConversionService,
  LibreOfficeConverter,
  type LibreOfficeConverterOptions,
} from '@mailroom/mailroom'
import { ConfigError } from './config-error.js'
import { type Env, setting } from './settings/read-setting.js'

/**
 * Content read settings from the environment (MAILROOM_WATERMARK_*, MAILROOM_TIMEZONE, MAILROOM_CONTENT_*; their
 * shapes and defaults are declared in settings/server-settings.ts, the watermark's in the reference's features.xml
 * shapes). A malformed value stops start-up naming the variable.
 */
export function loadContentSettings(env: Env = process.env): ContentSettings {
  let watermark: ContentSettings['watermark']
  try {
    watermark = parseWatermarkSettings({
      enabled: setting(env, 'MAILROOM_WATERMARK_ENABLED'),
      text: setting(env, 'MAILROOM_WATERMARK_TEXT'),
      position: setting(env, 'MAILROOM_WATERMARK_POSITION'),
      font: setting(env, 'MAILROOM_WATERMARK_FONT'),
      textColor: setting(env, 'MAILROOM_WATERMARK_COLOR'),
    })
  } catch (error) {
    if (isDomainError(error)) throw new ConfigError(`MAILROOM_WATERMARK_*: ${error.message}`)
    throw error
  }
  const timeZone = setting(env, 'MAILROOM_TIMEZONE')
  try {
    new Intl.DateTimeFormat('en-GB', { timeZone })
  } catch {
    throw new ConfigError(`MAILROOM_TIMEZONE must be an IANA time zone such as Europe/Paris, got "${timeZone}"`)
  }
  return {
    watermark,
    timeZone,
    verifyBeforeSendMaxBytes: setting(env, 'MAILROOM_CONTENT_VERIFY_BYTES'),
    readThreads: setting(env, 'MAILROOM_CONTENT_READ_THREADS'),
  }
}

/** The office converter's settings from the environment: its time limit (MAILROOM_CONVERSION_TIMEOUT_SECONDS). */
export function loadConversionSettings(env: Env = process.env): LibreOfficeConverterOptions {
  return { baseTimeoutMs: setting(env, 'MAILROOM_CONVERSION_TIMEOUT_SECONDS') * 1000 }
}

/** The server's one long-lived converter: in-process for PDF, images and text, a warm LibreOffice for office files. */
export interface ContentRuntime {
  readonly converter: PdfConverter
  /** True when LibreOffice was found (office formats convert). */
  readonly office: boolean
  /** Stops the warm LibreOffice. */
  close(): Promise<void>
}

/** Builds the converter; LibreOffice starts on the first office conversion, not here. The observer counts conversions. */
export function createContentRuntime(
  observer?: ConversionObserver,
  officeOptions: LibreOfficeConverterOptions = {},
): ContentRuntime {
  const office = new LibreOfficeConverter({ ...officeOptions, ...(observer ? { observer } : {}) })
  return {
    converter: new ConversionService({ office, ...(observer ? { observer } : {}) }),
    office: office.available,
    close: () => office.close(),
  }
}

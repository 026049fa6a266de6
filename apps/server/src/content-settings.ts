import { type ConversionObserver, isDomainError, type PdfConverter, parseWatermarkSettings } from '@mailroom/core'
import {
  type ContentSettings,
  ConversionService,
  DEFAULT_CONTENT_SETTINGS,
  LibreOfficeConverter,
} from '@mailroom/mailroom'
import { ConfigError } from './config.js'

type Env = Record<string, string | undefined>

/**
 * Content read settings from the environment, in the reference's features.xml shapes:
 * MAILROOM_WATERMARK_ENABLED (`true`/`false`, default true), MAILROOM_WATERMARK_TEXT (template with `[column]`,
 * `[date_now]`, `[hour_now]`), MAILROOM_WATERMARK_POSITION (`x,y,angle,opacity`, default `30,35,0,0.5`),
 * MAILROOM_WATERMARK_FONT (`family,size`, default `helvetica,10`), MAILROOM_WATERMARK_COLOR (`r,g,b`, default
 * `20,192,30`), MAILROOM_TIMEZONE (IANA zone of `[date_now]`/`[hour_now]`, default `Europe/Paris`) and
 * MAILROOM_CONTENT_VERIFY_BYTES (downloads up to this size are verified before the first byte is sent,
 * default 16 MiB) and MAILROOM_CONTENT_READ_THREADS (threads that read and hash those files, default 2; 0
 * reads them on the event loop). A malformed value stops start-up naming the variable.
 */
export function loadContentSettings(env: Env = process.env): ContentSettings {
  const value = (name: string) => (env[name] === undefined || env[name] === '' ? undefined : env[name])
  let watermark: ContentSettings['watermark']
  try {
    watermark = parseWatermarkSettings({
      enabled: value('MAILROOM_WATERMARK_ENABLED'),
      text: value('MAILROOM_WATERMARK_TEXT'),
      position: value('MAILROOM_WATERMARK_POSITION'),
      font: value('MAILROOM_WATERMARK_FONT'),
      textColor: value('MAILROOM_WATERMARK_COLOR'),
    })
  } catch (error) {
    if (isDomainError(error)) throw new ConfigError(`MAILROOM_WATERMARK_*: ${error.message}`)
    throw error
  }
  const timeZone = value('MAILROOM_TIMEZONE') ?? DEFAULT_CONTENT_SETTINGS.timeZone
  try {
    new Intl.DateTimeFormat('en-GB', { timeZone })
  } catch {
    throw new ConfigError(`MAILROOM_TIMEZONE must be an IANA time zone such as Europe/Paris, got "${timeZone}"`)
  }
  const verifyRaw = value('MAILROOM_CONTENT_VERIFY_BYTES')
  const verify = verifyRaw === undefined ? DEFAULT_CONTENT_SETTINGS.verifyBeforeSendMaxBytes : Number(verifyRaw)
  if (!Number.isSafeInteger(verify) || verify < 0)
    throw new ConfigError(`MAILROOM_CONTENT_VERIFY_BYTES must be a non-negative integer, got "${verifyRaw}"`)
  const threadsRaw = value('MAILROOM_CONTENT_READ_THREADS')
  const readThreads = threadsRaw === undefined ? DEFAULT_CONTENT_SETTINGS.readThreads : Number(threadsRaw)
  if (!Number.isSafeInteger(readThreads) || readThreads < 0 || readThreads > 64) {
    throw new ConfigError(`MAILROOM_CONTENT_READ_THREADS must be an integer from 0 to 64, got "${threadsRaw}"`)
  }
  return { watermark, timeZone, verifyBeforeSendMaxBytes: verify, readThreads }
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
export function createContentRuntime(observer?: ConversionObserver): ContentRuntime {
  const office = new LibreOfficeConverter(observer ? { observer } : {})
  return {
    converter: new ConversionService({ office, ...(observer ? { observer } : {}) }),
    office: office.available,
    close: () => office.close(),
  }
}

import { DEFAULT_WATERMARK_OPTIONS, type WatermarkOptions } from '@mailroom/core'

/** How the content reads behave (MailroomOptions.content). */
export interface ContentSettings {
  /** Watermark of `content` and `content/{version}` (reference features.xml defaults). */
  readonly watermark: WatermarkOptions
  /** IANA zone in which `[date_now]` / `[hour_now]` are written. */
  readonly timeZone: string
  /**
   * Raw downloads up to this size are read once into memory and checked before any byte is sent, so a
   * fingerprint mismatch answers the proper 400 JSON error. Larger files stream from disk while they are
   * hashed: a mismatch is only known at the end and cuts the transfer short (see verifyingStream).
   */
  readonly verifyBeforeSendMaxBytes: number
  /**
   * Worker threads that read and hash the files verified before sending (0: on the event loop). Hashing
   * every byte served is a read's largest CPU cost; off the event loop it runs beside the server's work.
   */
  readonly readThreads: number
}

/**
 * Defaults: the reference watermark, Europe/Paris (the reference's deployments and the demo organisation are
 * French, and `[hour_now]` is meant as the reader's wall clock), 16 MiB verified before sending, two
 * reading threads (one per core of the smallest machine served; each holds one file at a time).
 */
export const DEFAULT_CONTENT_SETTINGS: ContentSettings = {
  watermark: DEFAULT_WATERMARK_OPTIONS,
  timeZone: 'Europe/Paris',
  verifyBeforeSendMaxBytes: 16 * 1024 * 1024,
  readThreads: 2,
}

import { z } from 'zod'
import { fail } from '../errors/domain-error.js'

/** An RGB colour, each channel 0–255. */
export type RgbColor = readonly [r: number, g: number, b: number]

/**
 * How the watermark of `GET /resources/{resId}/content` looks (reference features.xml `FEATURES/watermark`).
 * Position and font size are in PDF points from the bottom-left corner of the visible page, angle in degrees
 * counter-clockwise, opacity 0–1.
 */
export interface WatermarkOptions {
  readonly enabled: boolean
  /** Template with `[column]`, `[date_now]` and `[hour_now]` placeholders, see {@link renderWatermarkText}. */
  readonly text: string
  readonly x: number
  readonly y: number
  readonly angle: number
  readonly opacity: number
  /** `helvetica`, `times` or `courier` use the PDF standard fonts when the text allows it; anything else the embedded Unicode font. */
  readonly fontFamily: string
  readonly fontSize: number
  readonly color: RgbColor
}

/** The reference defaults: the shipped features.xml text and colour, the code's position and font. */
export const DEFAULT_WATERMARK_OPTIONS: WatermarkOptions = {
  enabled: true,
  text: 'Copie conforme de [alt_identifier] le [date_now] [hour_now]',
  x: 30,
  y: 35,
  angle: 0,
  opacity: 0.5,
  fontFamily: 'helvetica',
  fontSize: 10,
  color: [20, 192, 30],
}

/** Options of {@link renderWatermarkText}. */
export interface WatermarkTextContext {
  /** Column values of the record, by column name (`alt_identifier`, `status`, …). */
  readonly record: Readonly<Record<string, unknown>>
  /** The moment `[date_now]` and `[hour_now]` show. */
  readonly now: Date
  /**
   * IANA time zone in which `[date_now]`/`[hour_now]` are written. Defaults to `UTC`: the server's wall clock
   * is a deployment choice, so the caller passes the configured zone (e.g. `Europe/Paris`) explicitly.
   */
  readonly timeZone?: string
}

const PLACEHOLDER = /\[([A-Za-z0-9_.]+)\]/g

/**
 * Renders a watermark template: `[date_now]` → `d-m-Y`, `[hour_now]` → `H:i` (24 h) in the given time zone,
 * `[column]` → the record's value for that column. Missing or null columns render as an empty string (the
 * reference would fail the SQL and drop the whole watermark; an empty value keeps the rest readable).
 */
export function renderWatermarkText(template: string, context: WatermarkTextContext): string {
  const clock = wallClock(context.now, context.timeZone ?? 'UTC')
  return template.replace(PLACEHOLDER, (_whole, name: string) => {
    if (name === 'date_now') return `${clock.day}-${clock.month}-${clock.year}`
    if (name === 'hour_now') return `${clock.hour}:${clock.minute}`
    return Object.hasOwn(context.record, name) ? columnText(context.record[name]) : ''
  })
}

function columnText(value: unknown): string {
  if (value === null || value === undefined) return ''
  if (typeof value === 'string') return value
  if (typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean') return String(value)
  if (value instanceof Date) {
    const c = wallClock(value, 'UTC')
    return `${c.year}-${c.month}-${c.day} ${c.hour}:${c.minute}:${c.second}`
  }
  return ''
}

interface WallClock {
  year: string
  month: string
  day: string
  hour: string
  minute: string
  second: string
}

function wallClock(date: Date, timeZone: string): WallClock {
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(date)
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? '00'
  return {
    year: part('year'),
    month: part('month'),
    day: part('day'),
    hour: part('hour'),
    minute: part('minute'),
    second: part('second'),
  }
}

// Decimal numbers only: `z.coerce` would read an empty part as 0 and accept `1e400`.
const numeric = z
  .string()
  .trim()
  .regex(/^[-+]?(\d+(\.\d*)?|\.\d+)$/, 'must be a number')
  .transform(Number)
const number = numeric.pipe(z.number())

const positionSchema = z
  .string()
  .transform((s) => s.split(',').map((p) => p.trim()))
  .pipe(z.tuple([number, number, number, numeric.pipe(z.number().min(0).max(1))]))

const fontSchema = z
  .string()
  .transform((s) => s.split(',').map((p) => p.trim()))
  .pipe(z.tuple([z.string().min(1), numeric.pipe(z.number().positive().max(500))]))

const channel = numeric.pipe(z.number().int().min(0).max(255))
const colorSchema = z
  .string()
  .transform((s) => s.split(',').map((p) => p.trim()))
  .pipe(z.tuple([channel, channel, channel]))

const booleanString = z
  .string()
  .trim()
  .toLowerCase()
  .pipe(z.enum(['true', 'false', '1', '0', 'yes', 'no', 'on', 'off']))
  .transform((s) => s === 'true' || s === '1' || s === 'yes' || s === 'on')

/**
 * Watermark settings as configuration strings, in the reference's features.xml shapes:
 * `enabled` `true`/`false`, `text` the template, `position` `X,Y,angle,opacity` (`30,35,0,0.5`),
 * `font` `family,size` (`helvetica,10`), `textColor` `R,G,B` (`20,192,30`). Absent keys take the defaults.
 */
export const watermarkSettingsSchema = z
  .object({
    enabled: booleanString.optional(),
    text: z.string().optional(),
    position: positionSchema.optional(),
    font: fontSchema.optional(),
    textColor: colorSchema.optional(),
  })
  .transform((s): WatermarkOptions => {
    const d = DEFAULT_WATERMARK_OPTIONS
    const [x, y, angle, opacity] = s.position ?? [d.x, d.y, d.angle, d.opacity]
    const [fontFamily, fontSize] = s.font ?? [d.fontFamily, d.fontSize]
    return {
      enabled: s.enabled ?? d.enabled,
      text: s.text ?? d.text,
      x,
      y,
      angle,
      opacity,
      fontFamily: fontFamily.toLowerCase(),
      fontSize,
      color: s.textColor ?? d.color,
    }
  })

/** The raw strings {@link watermarkSettingsSchema} reads. */
export type WatermarkSettingsInput = z.input<typeof watermarkSettingsSchema>

/** Parses watermark settings strings; throws WATERMARK_CONFIG_INVALID naming the first bad key. */
export function parseWatermarkSettings(input: WatermarkSettingsInput): WatermarkOptions {
  const result = watermarkSettingsSchema.safeParse(input)
  if (!result.success) {
    const issue = result.error.issues[0]
    fail('WATERMARK_CONFIG_INVALID', {
      detail: `${issue?.path.join('.') || 'settings'}: ${issue?.message ?? 'invalid'}`,
    })
  }
  return result.data
}

/**
 * The date and date-time forms real clients send to the record dates (clients-and-digital-safe.md B8.7).
 * The reference accepts anything PHP `strtotime` reads; Mailroom accepts the forms seen on the wire:
 *
 * - `DD-MM-YYYY` (day first, as French clients send it) and `DD-MM-YYYY HH:MM[:SS]`
 * - `YYYY-MM-DD`
 * - `YYYY-MM-DD HH:MM[:SS[.fraction]]` with `T` or a space between date and time
 * - any of the date-time forms followed by `Z`, `±HH:MM`, `±HHMM` or `±HH`
 *
 * A value without an offset is read as UTC (the service has no configured time zone, and UTC makes the
 * stored instant independent of the server's own zone). Fractions beyond milliseconds are truncated.
 * Relative words (`now`, `+1 day`) and month names are not accepted.
 */
export declare function parseLooseDate(text: string): Date | null;
/** The calendar date of an instant in UTC, as `YYYY-MM-DD` (custom date fields are stored this way). */
export declare function isoDay(date: Date): string;
/** Midnight UTC of the day `days` after the day of `now` (0: today, 1: tomorrow). */
export declare function startOfUtcDay(now: Date, days?: number): Date;

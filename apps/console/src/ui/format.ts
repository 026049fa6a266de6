import type { Language } from '../i18n/i18n.js'

/** A date-time of the server (ISO 8601) in the reader's language and time zone; other values as text. */
export function formatValue(value: unknown, language: Language): string {
  if (value === null || value === undefined) return ''
  if (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(value)) {
    const date = new Date(value)
    if (!Number.isNaN(date.getTime())) return date.toLocaleString(language === 'fr' ? 'fr-FR' : 'en-GB')
  }
  return typeof value === 'object' ? JSON.stringify(value) : String(value)
}

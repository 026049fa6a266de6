import type { Language, Translate } from '../i18n/i18n.js'
import type { MessageKey } from '../i18n/messages.js'
import type { DisplayItem } from './basket-types.js'

/** One item of a basket's row as the console shows it: what it is, and its value as text. */
export interface DisplayLine {
  readonly key: string
  readonly label: string
  readonly text: string
}

/** The labels of 20.10's display items (the group's list_display); others are named by their value. */
const LABELS: Readonly<Record<string, MessageKey>> = {
  getPriority: 'itemPriority',
  getCategory: 'itemCategory',
  getDoctype: 'itemDoctype',
  getAssignee: 'itemAssignee',
  getRecipients: 'itemRecipients',
  getSenders: 'itemSenders',
  getCreationAndProcessLimitDates: 'itemDates',
  getVisaWorkflow: 'itemVisaWorkflow',
  getSignatories: 'itemSignatories',
  getParallelOpinionsNumber: 'itemOpinions',
  getOpinionLimitDate: 'itemOpinionLimitDate',
  getResId: 'itemResId',
  getBarcode: 'itemBarcode',
  getModificationDate: 'itemModificationDate',
}

/** A database date (`2026-12-02 04:27:54.548`, UTC) as a day in the reader's language. */
function day(value: unknown, language: Language): string | null {
  if (typeof value !== 'string' || value === '') return null
  const date = new Date(`${value.replace(' ', 'T')}${/[zZ]|[+-]\d\d(:?\d\d)?$/.test(value) ? '' : 'Z'}`)
  return Number.isNaN(date.getTime()) ? value : date.toLocaleDateString(language === 'fr' ? 'fr-FR' : 'en-GB')
}

/** Any value of an item as plain text (never markup: the console writes it as text). */
function plain(value: unknown): string {
  if (value === null || value === undefined) return ''
  if (Array.isArray(value))
    return value
      .map(plain)
      .filter((v) => v !== '')
      .join(', ')
  if (typeof value === 'object') {
    const named = value as Record<string, unknown>
    if (typeof named.label === 'string') return named.label
    return Object.values(named)
      .map(plain)
      .filter((v) => v !== '')
      .join(' · ')
  }
  return String(value)
}

/** The row's items worth showing, in the group's order, each labelled; empty ones are left out. */
export function displayLines(items: readonly DisplayItem[], t: Translate, language: Language): DisplayLine[] {
  return items.flatMap((item, index) => {
    let text: string
    if (item.value === 'getCreationAndProcessLimitDates') {
      const dates = (item.displayValue ?? {}) as { creationDate?: unknown; processLimitDate?: unknown }
      const created = day(dates.creationDate, language)
      const limit = day(dates.processLimitDate, language)
      text = [created ? t('itemCreated', { date: created }) : '', limit ? t('itemDue', { date: limit }) : '']
        .filter((part) => part !== '')
        .join(' · ')
    } else {
      text = plain(item.displayValue)
    }
    if (text === '') return []
    const known = Object.hasOwn(LABELS, item.value) ? LABELS[item.value] : undefined
    const label = known ? t(known) : item.value.replace(/^get/, '')
    return [{ key: `${index}-${item.value}`, label, text }]
  })
}

import { EN, FR, type MessageKey } from './messages.js'

/** A language of the console. */
export type Language = 'en' | 'fr'

export const LANGUAGES: readonly Language[] = ['en', 'fr']

/** The first language the browser prefers that the console has; English otherwise. */
export function browserLanguage(preferred: readonly string[]): Language {
  for (const tag of preferred) {
    const base = tag.toLowerCase().split('-')[0]
    if (base === 'fr' || base === 'en') return base
  }
  return 'en'
}

/** A translator: the text of a key in one language, with {name} placeholders filled. */
export type Translate = (key: MessageKey, values?: Readonly<Record<string, string | number>>) => string

export function translator(language: Language): Translate {
  const table: Record<MessageKey, string> = language === 'fr' ? FR : EN
  return (key, values = {}) =>
    table[key].replace(/\{(\w+)\}/g, (whole, name: string) => (name in values ? String(values[name]) : whole))
}

export type { MessageKey }

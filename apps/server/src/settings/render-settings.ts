import { integerRange } from './read-setting.js'
import { SETTINGS } from './server-settings.js'
import { defaultWord, type NamedSetting, SETTING_GROUPS } from './setting-declaration.js'

/** Markdown as the terminal shows it: code spans and links reduced to their text. */
export function plainText(markdown: string): string {
  return markdown.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/`([^`]*)`/g, '$1')
}

/** The default in Markdown: the plain value in code with its note, or the declaration's own words. */
function defaultMarkdown(setting: NamedSetting): string {
  const word = defaultWord(setting)
  if (word === undefined) return setting.defaultText ?? 'unset'
  return setting.defaultNote ? `\`${word}\` (${setting.defaultNote})` : `\`${word}\``
}

/** The values it takes, in Markdown, for the documentation's table. */
function valuesMarkdown(setting: NamedSetting): string {
  const kind = (() => {
    switch (setting.kind) {
      case 'integer':
        return setting.max >= Number.MAX_SAFE_INTEGER
          ? `integer, \`${setting.min}\` or more`
          : `integer, \`${setting.min}\`–\`${setting.max}\``
      case 'flag':
        return '`1` or `0`'
      case 'choice':
        return [...(setting.off ? ['off'] : []), ...setting.choices].map((c) => `\`${c}\``).join(', ')
      case 'text':
        return setting.format ?? 'text'
    }
  })()
  const secret = setting.secret ? '; secret' : ''
  const file = setting.fromFile ? `, or in the file \`${setting.name}_FILE\` names` : ''
  return `${kind}${secret}${file}`
}

/** The bounds as the help adds them after the default, for the settings that have any. */
function valuesHint(setting: NamedSetting): string {
  if (setting.kind === 'integer') return ` [${integerRange(setting)}]`
  if (setting.kind === 'choice') return ` [${[...(setting.off ? ['off'] : []), ...setting.choices].join('|')}]`
  if (setting.fromFile) return ` [or ${setting.name}_FILE: a file holding it]`
  return ''
}

const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1)
const cell = (markdown: string) => markdown.replaceAll('|', '\\|')

/** The settings of one concern, in the order of the table. */
function settingsOf(group: string): NamedSetting[] {
  return SETTINGS.filter((s) => s.group === group)
}

/** The settings as the help prints them: by concern, one line each, name, what it does, default, bounds. */
export function settingsHelp(): string {
  const width = Math.max(...SETTINGS.map((s) => s.name.length))
  const groups = SETTING_GROUPS.map((group) => {
    const lines = settingsOf(group).map(
      (s) =>
        `  ${s.name.padEnd(width)}  ${plainText(s.description)} (default: ${plainText(defaultMarkdown(s))})${valuesHint(s)}`,
    )
    return ` ${group}:\n${lines.join('\n')}`
  })
  return `\nSettings (environment variables; docs/settings.md explains each):\n${groups.join('\n')}\n`
}

export const SETTINGS_TABLE_BEGIN =
  '<!-- settings: generated from apps/server/src/settings/server-settings.ts; refresh with `pnpm --filter @mailroom/server exec vitest run src/settings/settings.test.ts -u` -->'
export const SETTINGS_TABLE_END = '<!-- end of settings -->'

/** docs/settings.md's tables, one per concern, between the markers. */
export function settingsTables(): string {
  const sections = SETTING_GROUPS.map((group) => {
    const rows = settingsOf(group).map((s) => {
      const what = [capitalised(s.description), s.details].filter(Boolean).join('. ').replace(/\.\. /g, '. ')
      return `| \`${s.name}\` | ${cell(what)} | ${cell(valuesMarkdown(s))} | ${cell(defaultMarkdown(s))} |`
    })
    return [
      `## ${group}`,
      '',
      '| Environment variable | What it sets | Values | Default |',
      '|---|---|---|---|',
      ...rows,
    ].join('\n')
  })
  return [SETTINGS_TABLE_BEGIN, '', sections.join('\n\n'), '', SETTINGS_TABLE_END].join('\n')
}

/** The page with its tables replaced by the rendering (the page as it is when it has no markers). */
export function withSettingsTables(page: string): string {
  const begin = page.indexOf(SETTINGS_TABLE_BEGIN)
  const end = page.indexOf(SETTINGS_TABLE_END)
  if (begin < 0 || end < begin) return page
  return `${page.slice(0, begin)}${settingsTables()}${page.slice(end + SETTINGS_TABLE_END.length)}`
}

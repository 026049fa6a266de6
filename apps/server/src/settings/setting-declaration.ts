/**
 * The shape of one declared setting: what it is called (its key in the table), what it sets, the values it takes
 * and its default. The parser (read-setting.ts), `mailroom help` and docs/settings.md all read these.
 */

/** The concerns the settings are grouped by, in the order the help and the documentation list them. */
export const SETTING_GROUPS = [
  'Listening and requests',
  'Database',
  'Document storage',
  'Signing secrets and demo data',
  'Search',
  'Directory sign-in',
  'Passwords and sign-in throttle',
  'Proxies, browsers and security headers',
  'Metrics and logs',
  'Document content',
] as const

export type SettingGroup = (typeof SETTING_GROUPS)[number]

interface DeclarationBase {
  readonly group: SettingGroup
  /** What it sets, one line of Markdown: the help prints it without the Markdown. */
  readonly description: string
  /** More for docs/settings.md only (Markdown). */
  readonly details?: string
  /**
   * The default when it is not a plain value this parser applies: computed from other settings, or applied
   * by the package that takes the value (Markdown). Absent when `default` says it.
   */
  readonly defaultText?: string
  /** Said after a plain default (Markdown), such as `64 MiB`. */
  readonly defaultNote?: string
  /** A credential: never given a default, never written back by Mailroom. */
  readonly secret?: boolean
  /** Also read from the file `<NAME>_FILE` names (secrets mounted by an orchestrator); the file wins. */
  readonly fromFile?: boolean
  /** Read by another package straight from the environment, not by this server's parser. */
  readonly parsedBy?: string
}

/** A whole number within bounds. */
export interface IntegerDeclaration extends DeclarationBase {
  readonly kind: 'integer'
  readonly min: number
  /** Number.MAX_SAFE_INTEGER: no upper bound. */
  readonly max: number
  readonly default?: number
}

/** On or off: `1`, `true`, `yes`, `on` or `0`, `false`, `no`, `off`. */
export interface FlagDeclaration extends DeclarationBase {
  readonly kind: 'flag'
  readonly default?: boolean
}

/** One word of a list, compared without case. */
export interface ChoiceDeclaration extends DeclarationBase {
  readonly kind: 'choice'
  readonly choices: readonly string[]
  /** `off` is also accepted, and read as false. */
  readonly off?: boolean
  readonly default?: string
}

/** Free text (a path, an address, a list) whose shape the code that takes it checks. */
export interface TextDeclaration extends DeclarationBase {
  readonly kind: 'text'
  /** What it looks like, for the documentation (Markdown). */
  readonly format?: string
  /** Surrounding spaces are dropped, and a value of spaces alone counts as unset. */
  readonly trim?: boolean
  readonly default?: string
  /** When it is a number of hops or such: its bounds (MAILROOM_TRUST_PROXY). */
  readonly min?: number
  readonly max?: number
}

export type SettingDeclaration = IntegerDeclaration | FlagDeclaration | ChoiceDeclaration | TextDeclaration

/** A declaration with its name: the key it is declared under. */
export type NamedSetting = SettingDeclaration & { readonly name: string }

/** The value a declaration reads as: undefined when unset and it has no default of its own. */
export type SettingValue<D extends SettingDeclaration> =
  | (D extends IntegerDeclaration
      ? number
      : D extends FlagDeclaration
        ? boolean
        : D extends ChoiceDeclaration
          ? D['choices'][number] | (D extends { off: true } ? false : never)
          : string)
  | (D extends { default: unknown } ? never : undefined)

/** The default as the help and the documentation write it: `1`/`0` for a flag, the value itself otherwise. */
export function defaultWord(setting: SettingDeclaration): string | undefined {
  if (setting.default === undefined) return undefined
  if (setting.kind === 'flag') return setting.default ? '1' : '0'
  return String(setting.default)
}

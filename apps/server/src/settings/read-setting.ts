import { readFileSync } from 'node:fs'
import { ConfigError } from '../config-error.js'
import { SETTING_DECLARATIONS, type SettingName } from './server-settings.js'
import type {
  ChoiceDeclaration,
  FlagDeclaration,
  IntegerDeclaration,
  SettingDeclaration,
  SettingValue,
  TextDeclaration,
} from './setting-declaration.js'

/** The environment the settings are read from (process.env, or a test's own). */
export type Env = Readonly<Record<string, string | undefined>>

const YES = ['1', 'true', 'yes', 'on']
const NO = ['0', 'false', 'no', 'off']

/**
 * The value of one declared setting, parsed and checked as its declaration says: its default when unset (or
 * empty), a ConfigError naming it when malformed. The one place the server reads its settings from the environment.
 */
export function setting<N extends SettingName>(env: Env, name: N): SettingValue<(typeof SETTING_DECLARATIONS)[N]> {
  const declaration: SettingDeclaration = SETTING_DECLARATIONS[name]
  return readDeclared(env, name, declaration) as SettingValue<(typeof SETTING_DECLARATIONS)[N]>
}

function readDeclared(env: Env, name: string, declaration: SettingDeclaration): unknown {
  switch (declaration.kind) {
    case 'integer':
      return integer(name, env[name], declaration)
    case 'flag':
      return flag(name, env[name], declaration)
    case 'choice':
      return choice(name, env[name], declaration)
    case 'text':
      return text(name, env, declaration)
  }
}

/** A whole number within the declaration's bounds, the message saying them when it is not. */
export function parseInteger(name: string, raw: string | undefined, bounds: Pick<IntegerDeclaration, 'min' | 'max'>) {
  const value = Number(raw)
  if (!Number.isInteger(value) || value < bounds.min || value > bounds.max)
    throw new ConfigError(`${name} must be ${integerRange(bounds)}, got "${raw}"`)
  return value
}

/** `an integer from 1 to 1000`, or `an integer of at least 0` when unbounded above. */
export function integerRange(bounds: Pick<IntegerDeclaration, 'min' | 'max'>): string {
  return bounds.max >= Number.MAX_SAFE_INTEGER
    ? `an integer of at least ${bounds.min}`
    : `an integer from ${bounds.min} to ${bounds.max}`
}

function integer(name: string, raw: string | undefined, declaration: IntegerDeclaration): number | undefined {
  if (raw === undefined || raw.trim() === '') return declaration.default
  return parseInteger(name, raw, declaration)
}

function flag(name: string, raw: string | undefined, declaration: FlagDeclaration): boolean | undefined {
  const word = raw?.trim().toLowerCase()
  if (word === undefined || word === '') return declaration.default
  if (YES.includes(word)) return true
  if (NO.includes(word)) return false
  throw new ConfigError(`${name} must be 1 or 0, got "${raw}"`)
}

/** How a choice's message lists what it accepts: `json or pretty`, `off or one of a, b, c`, `one of a, b, c`. */
export function choiceList(declaration: Pick<ChoiceDeclaration, 'choices' | 'off'>): string {
  const { choices } = declaration
  if (declaration.off) return `off or one of ${choices.join(', ')}`
  return choices.length === 2 ? `${choices[0]} or ${choices[1]}` : `one of ${choices.join(', ')}`
}

function choice(name: string, raw: string | undefined, declaration: ChoiceDeclaration): string | false | undefined {
  const word = raw?.trim().toLowerCase()
  if (word === undefined || word === '') return declaration.default
  if (declaration.off && word === 'off') return false
  if (declaration.choices.includes(word)) return word
  throw new ConfigError(`${name} must be ${choiceList(declaration)}, got "${raw}"`)
}

function text(name: string, env: Env, declaration: TextDeclaration): string | undefined {
  if (declaration.fromFile) {
    const file = env[`${name}_FILE`]?.trim()
    if (file) {
      try {
        return readFileSync(file, 'utf8').trim()
      } catch (error) {
        throw new ConfigError(`${name}_FILE: cannot read ${file} (${(error as Error).message})`)
      }
    }
  }
  const raw = declaration.trim ? env[name]?.trim() : env[name]
  return raw === undefined || raw === '' ? declaration.default : raw
}

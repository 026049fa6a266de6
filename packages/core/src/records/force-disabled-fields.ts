import { isEmptyValue, isPlainObject } from './body-values.js'
import type { DisabledModelField } from './ports.js'

/** What the special default values stand for at the moment of a create. */
export interface ForcedValueContext {
  /** The create's "now"; `_TODAY` is its UTC day, like every other day of the create checks. */
  readonly today: Date
  /** entities.id of the actor's primary entity; null when the actor has none. */
  readonly primaryEntityId: number | null
}

const TODAY = '_TODAY'
const PRIMARY_ENTITY = '#myPrimaryEntity'
const CUSTOM_FIELD = /^indexingCustomField_(\d+)$/

/**
 * The body with the indexing model's disabled fields forced to their default values (reference §2.1 step 2,
 * StoreController::setDisabledFields), before any check reads it. `_TODAY` becomes the day as `DD-MM-YYYY`,
 * `#myPrimaryEntity` the actor's primary entity id, `indexingCustomField_N` lands in `customFields[N]`, and
 * `initiator` is never forced.
 *
 * A null default overwrites too, as in the reference: a disabled field is one clients may not fill, so its
 * value is the model's even when that is "nothing", and the field then counts as absent. Likewise an actor
 * without a primary entity gets null where `#myPrimaryEntity` was asked.
 * Defaults are compared strictly: the reference's loose `==` also turned 0 and true into today's date.
 * The body given is never changed; a new one is returned.
 */
export function forceDisabledFields(
  body: Readonly<Record<string, unknown>>,
  fields: readonly DisabledModelField[],
  context: ForcedValueContext,
): Readonly<Record<string, unknown>> {
  if (fields.length === 0) return body
  const forced: Record<string, unknown> = { ...body }
  for (const { identifier, defaultValue } of fields) {
    if (identifier === 'initiator') continue
    const value =
      defaultValue === TODAY
        ? dayMonthYear(context.today)
        : defaultValue === PRIMARY_ENTITY
          ? context.primaryEntityId
          : defaultValue
    const custom = CUSTOM_FIELD.exec(identifier)
    if (custom === null) {
      setOwn(forced, identifier, value)
      continue
    }
    const customFields = editableCustomFields(forced.customFields)
    // A customFields that is neither a map nor a list stays as sent, for its check to refuse it.
    if (customFields === undefined) continue
    setOwn(customFields, custom[1] as string, value)
    forced.customFields = customFields
  }
  return forced
}

/** A copy of `customFields` as a map keyed by id; a JSON list is keyed by index, as PHP reads it. */
function editableCustomFields(value: unknown): Record<string, unknown> | undefined {
  if (isEmptyValue(value)) return {}
  if (Array.isArray(value)) return Object.fromEntries(value.map((v, i) => [String(i), v]))
  return isPlainObject(value) ? { ...value } : undefined
}

// Identifiers come from the database: `__proto__` must become a key, not a new prototype.
function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true })
}

/** PHP `date('d-m-Y')` of a UTC day. */
function dayMonthYear(date: Date): string {
  const pad = (n: number, width: number) => String(n).padStart(width, '0')
  return `${pad(date.getUTCDate(), 2)}-${pad(date.getUTCMonth() + 1, 2)}-${pad(date.getUTCFullYear(), 4)}`
}

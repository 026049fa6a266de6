import type { Choice, ChoiceGroup } from '../capture/reference-options.js'
import { useConsole } from './context.js'

/**
 * A labelled list of choices read from the server. While the list loads it offers only "Loading…" (and stays
 * in the tab order, so the keyboard path of the form does not change); when the server cannot give it (an
 * older server, a refusal) the field becomes a typed input again, with the reason under it, so the form still
 * works.
 */
export function ChoiceField(props: {
  readonly id: string
  readonly label: string
  readonly choices: readonly Choice[] | readonly ChoiceGroup[] | null
  readonly error: string | null
  readonly value: string
  readonly onValue: (value: string) => void
  /** The first line: "any" on a filter, "none" on an optional field; left out when a choice is required. */
  readonly emptyLabel?: string
  readonly required?: boolean
}) {
  const { t } = useConsole()
  const onChange = (e: { currentTarget: HTMLInputElement | HTMLSelectElement }) => props.onValue(e.currentTarget.value)
  if (props.error !== null)
    return (
      <div class="field">
        <label for={props.id}>{props.label}</label>
        <input
          id={props.id}
          value={props.value}
          required={props.required}
          aria-describedby={`${props.id}-unavailable`}
          onInput={onChange}
        />
        <p id={`${props.id}-unavailable`} class="help">
          {t('listUnavailable', { reason: props.error })}
        </p>
      </div>
    )
  const choices = props.choices ?? []
  return (
    <div class="field">
      <label for={props.id}>{props.label}</label>
      <select
        id={props.id}
        value={props.value}
        required={props.required}
        aria-busy={props.choices === null ? true : undefined}
        onChange={onChange}
      >
        {props.emptyLabel !== undefined ? <option value="">{props.emptyLabel}</option> : null}
        {props.choices === null ? <option value={props.value}>{t('loading')}</option> : null}
        {choices.map((item) =>
          'choices' in item ? (
            <optgroup key={item.label} label={item.label}>
              {item.choices.map((choice) => (
                <option key={choice.value} value={choice.value}>
                  {choice.label}
                </option>
              ))}
            </optgroup>
          ) : (
            <option key={item.value} value={item.value}>
              {item.label}
            </option>
          ),
        )}
      </select>
    </div>
  )
}

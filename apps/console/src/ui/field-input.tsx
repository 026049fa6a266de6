import type { ComponentChildren } from 'preact'
import type { MessageKey } from '../i18n/i18n.js'
import { useConsole } from './context.js'

/** A labelled-elsewhere input of one of the three kinds the filter forms use. */
export function FieldInput(props: {
  readonly id: string
  readonly type: 'text' | 'number' | 'date'
  readonly value: string
  readonly min?: number
  readonly onValue: (value: string) => void
}) {
  const onInput = (e: { currentTarget: HTMLInputElement }) => props.onValue(e.currentTarget.value)
  if (props.type === 'number')
    return <input id={props.id} type="number" min={props.min} value={props.value} onInput={onInput} />
  if (props.type === 'date') return <input id={props.id} type="date" value={props.value} onInput={onInput} />
  return <input id={props.id} type="text" value={props.value} onInput={onInput} />
}

/** One field of a filter form: its name, label key and kind. */
export type FieldSpec<Name extends string> = readonly [field: Name, label: MessageKey, type: 'text' | 'number' | 'date']

/** The labelled inputs of a filter form, in a grid that folds on narrow screens. */
export function FieldGrid<Name extends string>(props: {
  readonly idPrefix: string
  readonly fields: readonly FieldSpec<Name>[]
  readonly values: Readonly<Record<Name, string>>
  readonly min: number
  readonly onValue: (field: Name, value: string) => void
  readonly children?: ComponentChildren
}) {
  const { t } = useConsole()
  return (
    <div class="grid">
      {props.children}
      {props.fields.map(([field, label, type]) => (
        <div class="field" key={field}>
          <label for={`${props.idPrefix}-${field}`}>{t(label)}</label>
          <FieldInput
            id={`${props.idPrefix}-${field}`}
            type={type}
            min={props.min}
            value={props.values[field]}
            onValue={(value) => props.onValue(field, value)}
          />
        </div>
      ))}
    </div>
  )
}

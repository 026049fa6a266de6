import type { BasketAddress } from '@mailroom/sdk'
import { useState } from 'preact/hooks'
import { useLoaded } from '../capture/use-loaded.js'
import type { MessageKey } from '../i18n/messages.js'
import { Alert } from '../ui/alert.js'
import { useConsole } from '../ui/context.js'
import { errorText } from '../ui/error-text.js'
import { formatValue } from '../ui/format.js'
import { LockIcon } from '../ui/lock-icon.js'
import { PageHeading } from '../ui/page-heading.js'
import { basketHash } from './basket-address.js'
import type { OfferedAction } from './basket-types.js'
import { leaveMessage } from './flash.js'
import { useLetterLock } from './use-letter-lock.js'

/** The components the console runs with no more than a note: the others need forms it does not have yet. */
const RUN_WITH_A_NOTE: ReadonlySet<string> = new Set([
  'confirmAction',
  'noConfirmAction',
  'closeMailAction',
  'closeMailWithAttachmentsOrNotesAction',
  'updateDepartureDateAction',
  'enabledBasketPersistenceAction',
  'disabledBasketPersistenceAction',
])

/** The letter's fields the page shows, in this order (the full record page shows them all). */
const FIELDS: readonly (readonly [string, MessageKey])[] = [
  ['alt_identifier', 'fieldChrono'],
  ['subject', 'fieldSubject'],
  ['status', 'fieldStatus'],
  ['type_label', 'fieldDoctype'],
  ['destination', 'fieldDestination'],
  ['category_id', 'fieldCategory'],
  ['priority', 'fieldPriority'],
  ['doc_date', 'fieldDocDate'],
  ['admission_date', 'fieldArrival'],
  ['process_limit_date', 'fieldLimit'],
  ['creation_date', 'fieldCreated'],
]

/**
 * A letter opened from a basket: held while open (see useLetterLock), its fields, and the actions the basket
 * offers on it. Running one sends the letter and an optional note (PUT …/actions/{id}) and goes back to the list.
 */
export function BasketLetterPage(props: { readonly basket: BasketAddress; readonly resId: number }) {
  const { t, language, keeper } = useConsole()
  const { basket, resId } = props
  const hold = useLetterLock(basket, resId)
  const letter = useLoaded(
    async (client) => (await client.search({ select: '*', clause: `res_id = ${resId}` })).resources[0] ?? null,
    resId,
  )
  const actions = useLoaded((client) => client.listBasketActions(basket, { resId }).then((a) => a.actions), resId)
  const [chosen, setChosen] = useState<OfferedAction | null>(null)
  const [note, setNote] = useState('')
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)

  const fields = letter.value
  const chrono = typeof fields?.alt_identifier === 'string' ? fields.alt_identifier : String(resId)
  const mayAct = hold.kind === 'mine'

  const run = async (action: OfferedAction) => {
    setBusy(true)
    setError(null)
    try {
      const answer = await keeper.call((client) =>
        client.runBasketAction(basket, action.id, {
          resources: [resId],
          ...(note.trim() === '' ? {} : { note: { content: note } }),
        }),
      )
      if (answer === null) {
        leaveMessage(t('actionDone', { action: action.label, chrono }))
        window.location.hash = basketHash(basket)
        return
      }
      setError('errors' in answer ? answer.errors.join(' ') : t('actionNothingDone'))
    } catch (caught) {
      setError(errorText(caught, t))
    } finally {
      setBusy(false)
    }
  }

  return (
    <>
      <p>
        <a href={basketHash(basket)}>{t('backToBasket')}</a>
      </p>
      <PageHeading text={t('letterTitle', { chrono })} />
      {hold.kind === 'theirs' ? (
        <p class="alert alert-error lock" role="status">
          <LockIcon />
          {t('letterLocked', { user: hold.lockers.join(', ') })}
        </p>
      ) : null}
      {hold.kind === 'mine' ? <p class="muted">{t('letterLockedByYou')}</p> : null}
      {hold.kind === 'failed' ? <Alert kind="error" text={hold.error} /> : null}
      <div class="record">
        <section class="card" aria-labelledby="letter-fields">
          <h2 id="letter-fields">{t('fields')}</h2>
          <Alert kind="error" text={letter.error} />
          {fields ? (
            <dl class="fields">
              {FIELDS.filter(
                ([name]) => fields[name] !== null && fields[name] !== undefined && fields[name] !== '',
              ).map(([name, label]) => (
                <div key={name}>
                  <dt>{t(label)}</dt>
                  <dd>{formatValue(fields[name], language)}</dd>
                </div>
              ))}
            </dl>
          ) : letter.error ? null : (
            <p>{t('loading')}</p>
          )}
          <p>
            <a href={`#/record/${resId}`}>{t('openFullRecord')}</a>
          </p>
        </section>

        <section class="card" aria-labelledby="letter-actions">
          <h2 id="letter-actions">{t('basketActions')}</h2>
          <Alert kind="error" text={actions.error ?? error} />
          {actions.value === null ? (
            actions.error ? null : (
              <p>{t('loading')}</p>
            )
          ) : actions.value.length === 0 ? (
            <p>{t('noActions')}</p>
          ) : (
            <ul class="basket-actions">
              {actions.value.map((action) =>
                action.component !== null && RUN_WITH_A_NOTE.has(action.component) ? (
                  <li key={action.id}>
                    <button
                      type="button"
                      class="secondary"
                      disabled={!mayAct || busy}
                      aria-pressed={chosen?.id === action.id}
                      onClick={() => setChosen(action)}
                    >
                      {action.label}
                    </button>
                  </li>
                ) : (
                  <li key={action.id} class="muted">
                    {t('actionNotInConsole', { action: action.label })}
                  </li>
                ),
              )}
            </ul>
          )}
          {chosen && mayAct ? (
            <form
              onSubmit={(e) => {
                e.preventDefault()
                void run(chosen)
              }}
            >
              <label for="action-note">{t('actionNote')}</label>
              <textarea id="action-note" rows={3} value={note} onInput={(e) => setNote(e.currentTarget.value)} />
              <div class="actions">
                <button type="submit" disabled={busy}>
                  {t('runAction', { action: chosen.label })}
                </button>
                <button type="button" class="secondary" onClick={() => setChosen(null)}>
                  {t('cancel')}
                </button>
              </div>
            </form>
          ) : null}
        </section>
      </div>
    </>
  )
}

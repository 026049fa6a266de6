import { useState } from 'preact/hooks'
import { Alert } from '../ui/alert.js'
import { useConsole } from '../ui/context.js'
import { errorText } from '../ui/error-text.js'

/**
 * The status change of one record or of every selected record, in one request: the server applies it to
 * all of them or to none (an unknown status, a record out of perimeter), and the form says which.
 */
export function StatusChangeForm(props: {
  readonly title: string
  readonly resIds: readonly number[]
  readonly onChanged: () => unknown
}) {
  const { t, keeper } = useConsole()
  const [status, setStatus] = useState('')
  const [message, setMessage] = useState('')
  const [result, setResult] = useState<{ kind: 'ok' | 'error'; text: string } | null>(null)

  const submit = async (event: Event) => {
    event.preventDefault()
    setResult(null)
    const count = props.resIds.length
    try {
      await keeper.call((client) =>
        client.updateStatus({
          status: status.trim(),
          resId: [...props.resIds],
          ...(message.trim() ? { historyMessage: message.trim() } : {}),
        }),
      )
      setResult({
        kind: 'ok',
        text:
          count === 1
            ? t('statusChanged', { status: status.trim() })
            : t('bulkApplied', { status: status.trim(), count }),
      })
      setMessage('')
      await props.onChanged()
    } catch (caught) {
      setResult({ kind: 'error', text: errorText(caught, t) })
    }
  }

  return (
    <form class="card status-change" onSubmit={submit} aria-labelledby="status-change-title">
      <h2 id="status-change-title">{props.title}</h2>
      <div class="grid">
        <div class="field">
          <label for="new-status">{t('newStatus')}</label>
          <input
            id="new-status"
            required
            maxLength={10}
            value={status}
            onInput={(e) => setStatus(e.currentTarget.value)}
          />
        </div>
        <div class="field">
          <label for="history-message">{t('historyMessage')}</label>
          <input id="history-message" value={message} onInput={(e) => setMessage(e.currentTarget.value)} />
        </div>
      </div>
      <button type="submit" disabled={props.resIds.length === 0}>
        {t('apply')}
      </button>
      {result ? <Alert kind={result.kind} text={result.text} /> : null}
    </form>
  )
}

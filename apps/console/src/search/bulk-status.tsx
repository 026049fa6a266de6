import { useState } from 'preact/hooks'
import { Alert } from '../ui/alert.js'
import { useConsole } from '../ui/context.js'
import { errorText } from '../ui/error-text.js'

/**
 * The status change of every selected record in one request: the server applies it to all of them or to
 * none (an unknown status, a record out of perimeter), and the page says which.
 */
export function BulkStatus(props: { readonly selected: readonly number[]; readonly onChanged: () => void }) {
  const { t, keeper } = useConsole()
  const [status, setStatus] = useState('')
  const [message, setMessage] = useState('')
  const [result, setResult] = useState<{ kind: 'ok' | 'error'; text: string } | null>(null)

  const submit = async (event: Event) => {
    event.preventDefault()
    setResult(null)
    const count = props.selected.length
    try {
      await keeper.call((client) =>
        client.updateStatus({ status: status.trim(), resId: [...props.selected], ...(message.trim() ? { historyMessage: message.trim() } : {}) }),
      )
      setResult({ kind: 'ok', text: t('bulkApplied', { status: status.trim(), count }) })
      props.onChanged()
    } catch (caught) {
      setResult({ kind: 'error', text: errorText(caught, t) })
    }
  }

  return (
    <form class="card bulk" onSubmit={submit} aria-labelledby="bulk-title">
      <h3 id="bulk-title">{t('bulkTitle', { count: props.selected.length })}</h3>
      <div class="grid">
        <div class="field">
          <label for="bulk-status">{t('newStatus')}</label>
          <input id="bulk-status" required maxLength={10} value={status} onInput={(e) => setStatus(e.currentTarget.value)} />
        </div>
        <div class="field">
          <label for="bulk-message">{t('historyMessage')}</label>
          <input id="bulk-message" value={message} onInput={(e) => setMessage(e.currentTarget.value)} />
        </div>
      </div>
      <button type="submit" disabled={props.selected.length === 0}>
        {t('apply')}
      </button>
      {result ? <Alert kind={result.kind} text={result.text} /> : null}
    </form>
  )
}

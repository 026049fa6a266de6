import type { MailroomClient } from '@mailroom/sdk'
import { useCallback, useEffect, useState } from 'preact/hooks'
import { Alert } from '../ui/alert.js'
import { useConsole } from '../ui/context.js'
import { errorText } from '../ui/error-text.js'

type LinkedResource = Awaited<ReturnType<MailroomClient['listLinkedResources']>>['linkedResources'][number]

/**
 * The records linked to a record (those the user may see), each opening its own page, with a form that links
 * another record and a button that removes a link. Linking needs the add_links privilege: the server's
 * "Service forbidden" is shown as it comes.
 */
export function RecordLinks(props: { readonly resId: number; readonly onChanged: () => unknown }) {
  const { t, keeper } = useConsole()
  const { resId } = props
  const [linked, setLinked] = useState<readonly LinkedResource[] | null>(null)
  const [other, setOther] = useState('')
  const [result, setResult] = useState<{ kind: 'ok' | 'error'; text: string } | null>(null)

  const load = useCallback(async () => {
    try {
      setLinked((await keeper.call((client) => client.listLinkedResources(resId))).linkedResources)
    } catch (caught) {
      setResult({ kind: 'error', text: errorText(caught, t) })
    }
  }, [keeper, resId, t])
  useEffect(() => void load(), [load])

  /** Runs a change, then reloads the list and the page's history, or shows the server's refusal. */
  const change = async (action: (client: MailroomClient) => Promise<void>, done: string) => {
    setResult(null)
    try {
      await keeper.call(action)
      setResult({ kind: 'ok', text: done })
      await load()
      await props.onChanged()
    } catch (caught) {
      setResult({ kind: 'error', text: errorText(caught, t) })
    }
  }

  const submit = async (event: Event) => {
    event.preventDefault()
    const id = Number(other)
    await change((client) => client.linkResources(resId, { linkedResources: [id] }), t('linkAdded', { resId: id }))
    setOther('')
  }

  return (
    <section aria-labelledby="links-title" class="card">
      <h2 id="links-title">{t('links')}</h2>
      {linked === null ? (
        <p>{t('loading')}</p>
      ) : linked.length === 0 ? (
        <p>{t('noLinks')}</p>
      ) : (
        <ul class="links">
          {linked.map((record) => (
            <li key={record.resId}>
              <a href={`#/record/${record.resId}`}>
                {record.chrono ?? record.resId} — {record.subject ?? ''}
              </a>{' '}
              <button
                type="button"
                class="link"
                onClick={() =>
                  void change(
                    (client) => client.unlinkResource(resId, record.resId),
                    t('linkRemoved', { resId: record.resId }),
                  )
                }
              >
                {t('removeLink', { resId: record.resId })}
              </button>
            </li>
          ))}
        </ul>
      )}
      <form onSubmit={submit}>
        <div class="field">
          <label for="link-res-id">{t('linkRecord')}</label>
          <input
            id="link-res-id"
            required
            inputMode="numeric"
            pattern="[0-9]+"
            value={other}
            onInput={(e) => setOther(e.currentTarget.value)}
          />
        </div>
        <button type="submit">{t('addLink')}</button>
      </form>
      {result ? <Alert kind={result.kind} text={result.text} /> : null}
    </section>
  )
}

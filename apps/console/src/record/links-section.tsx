import type { MailroomClient } from '@mailroom/sdk'
import { useState } from 'preact/hooks'
import { addLinks, readLinks, removeLink } from '../capture/capture-api.js'
import { linkedRecordLine, parseRecordNumbers } from '../capture/record-lines.js'
import { useLoaded } from '../capture/use-loaded.js'
import { Alert } from '../ui/alert.js'
import { useConsole } from '../ui/context.js'
import { errorText } from '../ui/error-text.js'
import { LoadedList } from '../ui/loaded-list.js'

/**
 * The records linked to this one that the reader may see (GET /rest/resources/{resId}/linkedResources);
 * for those with add_links, a form to link records by number and a button to remove each link.
 */
export function LinksSection(props: { readonly resId: number; readonly onChanged: () => unknown }) {
  const { t, keeper, abilities } = useConsole()
  const [version, setVersion] = useState(0)
  const links = useLoaded((client) => readLinks(client, props.resId), version)
  const [typed, setTyped] = useState('')
  const [result, setResult] = useState<{ kind: 'ok' | 'error'; text: string } | null>(null)

  const change = async (run: (client: MailroomClient) => Promise<unknown>, done: string) => {
    setResult(null)
    try {
      await keeper.call(run)
      setResult({ kind: 'ok', text: done })
      setVersion((v) => v + 1)
      await props.onChanged()
    } catch (caught) {
      setResult({ kind: 'error', text: errorText(caught, t) })
    }
  }

  const submit = async (event: Event) => {
    event.preventDefault()
    const ids = parseRecordNumbers(typed)
    if (ids === null) {
      setResult({ kind: 'error', text: t('linkNumbersInvalid') })
      return
    }
    await change((client) => addLinks(client, props.resId, ids), t('linked', { count: ids.length }))
    setTyped('')
  }

  return (
    <section aria-labelledby="links-title" class="card">
      <h2 id="links-title">{t('links')}</h2>
      <LoadedList loaded={links} empty={t('noLinks')}>
        {(items) => (
          <ul class="links">
            {items.map((record) => (
              <li key={record.resId}>
                <a href={`#/record/${record.resId}`}>{t('recordTitle', { resId: record.resId })}</a>{' '}
                <span>{linkedRecordLine(record)}</span>
                {abilities.canLink ? (
                  <>
                    {' '}
                    <button
                      type="button"
                      class="link"
                      aria-label={t('removeLink', { resId: record.resId })}
                      onClick={() =>
                        void change(
                          (client) => removeLink(client, props.resId, record.resId),
                          t('linkRemoved', { resId: record.resId }),
                        )
                      }
                    >
                      {t('unlink')}
                    </button>
                  </>
                ) : null}
              </li>
            ))}
          </ul>
        )}
      </LoadedList>
      {abilities.canLink ? (
        <form onSubmit={submit}>
          <label for="link-records">{t('linkRecords')}</label>
          <input
            id="link-records"
            inputMode="numeric"
            required
            aria-describedby="link-records-help"
            value={typed}
            onInput={(e) => setTyped(e.currentTarget.value)}
          />
          <p id="link-records-help" class="help">
            {t('linkRecordsHelp')}
          </p>
          <button type="submit">{t('addLink')}</button>
        </form>
      ) : null}
      {result ? <Alert kind={result.kind} text={result.text} /> : null}
    </section>
  )
}

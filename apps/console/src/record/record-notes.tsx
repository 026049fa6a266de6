import type { MailroomClient } from '@mailroom/sdk'
import { useCallback, useEffect, useState } from 'preact/hooks'
import { Alert } from '../ui/alert.js'
import { useConsole } from '../ui/context.js'
import { errorText } from '../ui/error-text.js'
import { formatValue } from '../ui/format.js'

type Note = Awaited<ReturnType<MailroomClient['listNotes']>>['notes'][number]

/** The entity ids typed in the restriction field: comma- or space-separated, each once. */
function entityIdsOf(text: string): string[] {
  return [...new Set(text.split(/[\s,]+/).filter(Boolean))]
}

/**
 * The notes of a record the user may see, newest first, and the form that adds one (optionally restricted to
 * entities: then only their members and its author see it). The server's refusals are shown as it words them.
 */
export function RecordNotes(props: { readonly resId: number; readonly onAdded: () => unknown }) {
  const { t, language, keeper } = useConsole()
  const { resId } = props
  const [notes, setNotes] = useState<readonly Note[] | null>(null)
  const [value, setValue] = useState('')
  const [entities, setEntities] = useState('')
  const [result, setResult] = useState<{ kind: 'ok' | 'error'; text: string } | null>(null)

  const load = useCallback(async () => {
    try {
      setNotes((await keeper.call((client) => client.listNotes(resId))).notes)
    } catch (caught) {
      setResult({ kind: 'error', text: errorText(caught, t) })
    }
  }, [keeper, resId, t])
  useEffect(() => void load(), [load])

  const submit = async (event: Event) => {
    event.preventDefault()
    setResult(null)
    const restriction = entityIdsOf(entities)
    try {
      await keeper.call((client) =>
        client.createNote({ resId, value, ...(restriction.length > 0 ? { entities: restriction } : {}) }),
      )
      setValue('')
      setEntities('')
      setResult({ kind: 'ok', text: t('noteAdded') })
      await load()
      await props.onAdded()
    } catch (caught) {
      setResult({ kind: 'error', text: errorText(caught, t) })
    }
  }

  return (
    <section aria-labelledby="notes-title" class="card">
      <h2 id="notes-title">{t('notes')}</h2>
      {notes === null ? (
        <p>{t('loading')}</p>
      ) : notes.length === 0 ? (
        <p>{t('noNotes')}</p>
      ) : (
        <ul class="notes">
          {notes.map((note) => (
            <li key={note.id}>
              <p class="note-meta">
                {[note.firstname, note.lastname].filter(Boolean).join(' ')} —{' '}
                {formatValue(note.creation_date, language)}
                {note.entities_restriction
                  ? ` — ${t('noteRestrictedTo', { entities: note.entities_restriction.flatMap((e) => e.item_id).join(', ') })}`
                  : ''}
              </p>
              <p class="note-text">{note.value}</p>
            </li>
          ))}
        </ul>
      )}
      <form onSubmit={submit}>
        <div class="field">
          <label for="note-value">{t('newNote')}</label>
          <textarea id="note-value" required value={value} onInput={(e) => setValue(e.currentTarget.value)} />
        </div>
        <div class="field">
          <label for="note-entities">{t('noteEntities')}</label>
          <input id="note-entities" value={entities} onInput={(e) => setEntities(e.currentTarget.value)} />
        </div>
        <button type="submit">{t('addNote')}</button>
      </form>
      {result ? <Alert kind={result.kind} text={result.text} /> : null}
    </section>
  )
}

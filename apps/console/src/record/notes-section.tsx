import { useState } from 'preact/hooks'
import { addNote, readNotes } from '../capture/capture-api.js'
import { entityIds, maarchMoment, noteAuthor, noteRestriction } from '../capture/record-lines.js'
import { useLoaded } from '../capture/use-loaded.js'
import { Alert } from '../ui/alert.js'
import { useConsole } from '../ui/context.js'
import { errorText } from '../ui/error-text.js'
import { LoadedList } from '../ui/loaded-list.js'

/**
 * A record's notes the reader may see (GET /rest/resources/{resId}/notes), newest first, and a new one,
 * optionally kept for some entities (then only their members and its author see it).
 */
export function NotesSection(props: { readonly resId: number; readonly onChanged: () => unknown }) {
  const { t, language, keeper } = useConsole()
  const [version, setVersion] = useState(0)
  const notes = useLoaded((client) => readNotes(client, props.resId), version)
  const [value, setValue] = useState('')
  const [entities, setEntities] = useState('')
  const [result, setResult] = useState<{ kind: 'ok' | 'error'; text: string } | null>(null)

  const submit = async (event: Event) => {
    event.preventDefault()
    setResult(null)
    try {
      await keeper.call((client) => addNote(client, props.resId, value, entityIds(entities)))
      setValue('')
      setEntities('')
      setResult({ kind: 'ok', text: t('noteAdded') })
      setVersion((v) => v + 1)
      await props.onChanged()
    } catch (caught) {
      setResult({ kind: 'error', text: errorText(caught, t) })
    }
  }

  return (
    <section aria-labelledby="notes-title" class="card">
      <h2 id="notes-title">{t('notes')}</h2>
      <LoadedList loaded={notes} empty={t('noNotes')}>
        {(items) => (
          <ul class="notes">
            {items.map((note) => {
              const restriction = noteRestriction(note)
              return (
                <li key={note.id}>
                  <p class="note-value">{note.value}</p>
                  <p class="help">
                    {noteAuthor(note)} · {maarchMoment(note.creation_date, language)}
                    {restriction ? ` · ${t('noteRestrictedTo', { entities: restriction })}` : ''}
                  </p>
                </li>
              )
            })}
          </ul>
        )}
      </LoadedList>
      <form onSubmit={submit}>
        <label for="new-note">{t('newNote')}</label>
        <textarea id="new-note" rows={3} required value={value} onInput={(e) => setValue(e.currentTarget.value)} />
        <label for="note-entities">{t('noteEntities')}</label>
        <input id="note-entities" value={entities} onInput={(e) => setEntities(e.currentTarget.value)} />
        <button type="submit">{t('addNote')}</button>
        {result ? <Alert kind={result.kind} text={result.text} /> : null}
      </form>
    </section>
  )
}

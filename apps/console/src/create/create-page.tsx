import { encodeBase64 } from '@mailroom/sdk'
import { useEffect, useState } from 'preact/hooks'
import {
  type ContactRow,
  readDoctypes,
  readEntities,
  readIndexingModels,
  readPriorities,
  readStatuses,
} from '../capture/capture-api.js'
import {
  doctypeGroups,
  entityChoices,
  modelChoices,
  priorityChoices,
  statusChoices,
} from '../capture/reference-options.js'
import { SenderPicker } from '../capture/sender-picker.js'
import { useLoaded } from '../capture/use-loaded.js'
import { Alert } from '../ui/alert.js'
import { ChoiceField } from '../ui/choice-field.js'
import { useConsole } from '../ui/context.js'
import { errorText } from '../ui/error-text.js'
import { fileFormat } from '../ui/file-format.js'
import { PageHeading } from '../ui/page-heading.js'

/** What a person whose groups cannot index sees instead of the form. */
export function CannotIndex() {
  const { t } = useConsole()
  return (
    <>
      <PageHeading text={t('createTitle')} />
      <Alert kind="error" text={t('cannotIndex')} />
    </>
  )
}

/**
 * A new record: a file dropped or chosen; the indexing model, status, document type, destination and
 * priority chosen from the server's lists (GET /rest/indexingModels, statuses, doctypes, entities,
 * priorities); the sender looked up among the contacts; subject and chrono.
 */
export function CreatePage() {
  const { t, keeper } = useConsole()
  const models = useLoaded(readIndexingModels)
  const statuses = useLoaded(readStatuses)
  const doctypes = useLoaded(readDoctypes)
  const entities = useLoaded(readEntities)
  const priorities = useLoaded(readPriorities)
  const [file, setFile] = useState<File | null>(null)
  const [over, setOver] = useState(false)
  const [modelId, setModelId] = useState('1')
  const [status, setStatus] = useState('NEW')
  const [doctype, setDoctype] = useState('')
  const [destination, setDestination] = useState('')
  const [priority, setPriority] = useState('')
  const [sender, setSender] = useState<ContactRow | null>(null)
  const [subject, setSubject] = useState('')
  const [chrono, setChrono] = useState(true)
  const [busy, setBusy] = useState(false)
  const [result, setResult] = useState<{ kind: 'ok' | 'error'; text: string; resId?: number } | null>(null)

  const model = models.value ? modelChoices(models.value) : null
  // Start with the default indexing model once the list is in.
  useEffect(() => {
    if (model?.initial) setModelId(model.initial)
  }, [model?.initial])

  const submit = async (event: Event) => {
    event.preventDefault()
    setBusy(true)
    setResult(null)
    try {
      const encodedFile = file ? encodeBase64(new Uint8Array(await file.arrayBuffer())) : undefined
      const body = {
        modelId: Number(modelId),
        status: status.trim(),
        chrono,
        ...(subject.trim() ? { subject: subject.trim() } : {}),
        ...(doctype ? { doctype: Number(doctype) } : {}),
        ...(destination ? { destination: Number(destination) } : {}),
        ...(priority ? { priority } : {}),
        ...(sender ? { senders: [{ id: sender.id, type: 'contact' as const }] } : {}),
        ...(file && encodedFile !== undefined ? { encodedFile, format: fileFormat(file.name) } : {}),
      }
      const { resId } = await keeper.call((client) => client.createRecord(body))
      setResult({ kind: 'ok', text: t('created', { resId }), resId })
    } catch (caught) {
      setResult({ kind: 'error', text: errorText(caught, t) })
    } finally {
      setBusy(false)
    }
  }

  return (
    <>
      <PageHeading text={t('createTitle')} />
      <form class="card create-form" onSubmit={submit}>
        <label
          for="file"
          class={`drop${over ? ' over' : ''}`}
          onDragOver={(e) => {
            e.preventDefault()
            setOver(true)
          }}
          onDragLeave={() => setOver(false)}
          onDrop={(e) => {
            e.preventDefault()
            setOver(false)
            const dropped = e.dataTransfer?.files[0]
            if (dropped) setFile(dropped)
          }}
        >
          <span>{t('dropFile')}</span>
          {file ? <span class="chosen">{t('chosenFile', { name: file.name, size: file.size })}</span> : null}
        </label>
        <input
          id="file"
          type="file"
          class="visually-hidden-file"
          onChange={(e) => setFile(e.currentTarget.files?.[0] ?? null)}
        />
        <div class="grid">
          <ChoiceField
            id="model"
            label={t('model')}
            choices={model?.choices ?? null}
            error={models.error}
            value={modelId}
            onValue={setModelId}
            required
          />
          <ChoiceField
            id="create-status"
            label={t('initialStatus')}
            choices={statuses.value ? statusChoices(statuses.value) : null}
            error={statuses.error}
            value={status}
            onValue={setStatus}
            required
          />
          <ChoiceField
            id="create-doctype"
            label={t('doctype')}
            choices={doctypes.value ? doctypeGroups(doctypes.value) : null}
            error={doctypes.error}
            value={doctype}
            onValue={setDoctype}
            emptyLabel={t('none')}
          />
          <ChoiceField
            id="create-destination"
            label={t('destination')}
            choices={entities.value ? entityChoices(entities.value, { allowedOnly: false, value: 'serialId' }) : null}
            error={entities.error}
            value={destination}
            onValue={setDestination}
            emptyLabel={t('none')}
          />
          <ChoiceField
            id="create-priority"
            label={t('priority')}
            choices={priorities.value ? priorityChoices(priorities.value) : null}
            error={priorities.error}
            value={priority}
            onValue={setPriority}
            emptyLabel={t('none')}
          />
          <SenderPicker id="create-sender" label={t('sender')} chosen={sender} onChoose={setSender} />
        </div>
        <label for="create-subject">{t('subject')}</label>
        <input id="create-subject" value={subject} onInput={(e) => setSubject(e.currentTarget.value)} />
        <label class="check">
          <input type="checkbox" checked={chrono} onChange={(e) => setChrono(e.currentTarget.checked)} />
          {t('withChrono')}
        </label>
        <button type="submit" disabled={busy}>
          {t('create')}
        </button>
        {result ? <Alert kind={result.kind} text={result.text} /> : null}
        {result?.resId ? (
          <p>
            <a href={`#/record/${result.resId}`}>{t('openRecord', { resId: result.resId })}</a>
          </p>
        ) : null}
      </form>
    </>
  )
}

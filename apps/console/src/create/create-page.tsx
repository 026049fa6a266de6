import { encodeBase64 } from '@mailroom/sdk'
import { useState } from 'preact/hooks'
import { Alert } from '../ui/alert.js'
import { useConsole } from '../ui/context.js'
import { errorText } from '../ui/error-text.js'
import { PageHeading } from '../ui/page-heading.js'

/** The format the server is told: the file name's extension (it checks it against the bytes). */
/** The extension of a chosen file's name, lower case: the `format` the server checks against its bytes. */
export function extension(name: string): string {
  const dot = name.lastIndexOf('.')
  return dot > 0 ? name.slice(dot + 1).toLowerCase() : ''
}

/**
 * A new record: a file dropped or chosen, the indexing model, status, type, destination, subject and
 * chrono. The server decides who may index: a user who may not sees its refusal.
 */
export function CreatePage() {
  const { t, keeper } = useConsole()
  const [file, setFile] = useState<File | null>(null)
  const [over, setOver] = useState(false)
  const [modelId, setModelId] = useState('1')
  const [status, setStatus] = useState('NEW')
  const [doctype, setDoctype] = useState('')
  const [destination, setDestination] = useState('')
  const [subject, setSubject] = useState('')
  const [chrono, setChrono] = useState(true)
  const [busy, setBusy] = useState(false)
  const [result, setResult] = useState<{ kind: 'ok' | 'error'; text: string; resId?: number } | null>(null)

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
        ...(file && encodedFile !== undefined ? { encodedFile, format: extension(file.name) } : {}),
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
          <div class="field">
            <label for="model">{t('model')}</label>
            <input
              id="model"
              type="number"
              min={1}
              required
              value={modelId}
              onInput={(e) => setModelId(e.currentTarget.value)}
            />
          </div>
          <div class="field">
            <label for="create-status">{t('initialStatus')}</label>
            <input
              id="create-status"
              required
              maxLength={10}
              value={status}
              onInput={(e) => setStatus(e.currentTarget.value)}
            />
          </div>
          <div class="field">
            <label for="create-doctype">{t('doctype')}</label>
            <input
              id="create-doctype"
              type="number"
              min={1}
              value={doctype}
              onInput={(e) => setDoctype(e.currentTarget.value)}
            />
          </div>
          <div class="field">
            <label for="create-destination">{t('destinationId')}</label>
            <input
              id="create-destination"
              type="number"
              min={1}
              value={destination}
              onInput={(e) => setDestination(e.currentTarget.value)}
            />
          </div>
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

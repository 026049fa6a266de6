import { decodeBase64, encodeBase64, type MailroomClient } from '@mailroom/sdk'
import { useCallback, useEffect, useState } from 'preact/hooks'
import { extension } from '../create/create-page.js'
import { Alert } from '../ui/alert.js'
import { useConsole } from '../ui/context.js'
import { saveBytes } from '../ui/download.js'
import { errorText } from '../ui/error-text.js'

type Attachments = Awaited<ReturnType<MailroomClient['getRecordAttachments']>>['attachments']
type Types = Awaited<ReturnType<MailroomClient['getAttachmentTypes']>>['attachmentsTypes']

/**
 * A record's attachments (current versions, as `GET /rest/resources/{resId}/attachments` lists them), each
 * downloadable, and a form adding one with a type of the organisation (those offered by hand: `show`).
 */
export function AttachmentsCard(props: { readonly resId: number }) {
  const { t, keeper } = useConsole()
  const { resId } = props
  const [attachments, setAttachments] = useState<Attachments | null>(null)
  const [types, setTypes] = useState<Types>({})
  const [type, setType] = useState('simple_attachment')
  const [title, setTitle] = useState('')
  const [file, setFile] = useState<File | null>(null)
  const [busy, setBusy] = useState(false)
  const [result, setResult] = useState<{ kind: 'ok' | 'error'; text: string } | null>(null)

  const load = useCallback(async () => {
    const [list, known] = await keeper.call((client) =>
      Promise.all([client.getRecordAttachments(resId), client.getAttachmentTypes()]),
    )
    setAttachments(list.attachments)
    setTypes(known.attachmentsTypes)
  }, [keeper, resId])

  useEffect(() => {
    load().catch((caught: unknown) => setResult({ kind: 'error', text: errorText(caught, t) }))
  }, [load, t])

  const download = async (id: number) => {
    try {
      const original = await keeper.call((client) => client.getAttachmentOriginalContent(id, { mode: 'base64' }))
      saveBytes(decodeBase64(original.encodedDocument), original.filename, original.mimeType)
    } catch (caught) {
      setResult({ kind: 'error', text: errorText(caught, t) })
    }
  }

  const submit = async (event: Event) => {
    event.preventDefault()
    if (!file) return
    setBusy(true)
    setResult(null)
    try {
      const encodedFile = encodeBase64(new Uint8Array(await file.arrayBuffer()))
      const body = {
        resIdMaster: resId,
        type,
        encodedFile,
        format: extension(file.name),
        ...(title.trim() ? { title: title.trim() } : {}),
      }
      const { id } = await keeper.call((client) => client.createAttachment(body))
      setResult({ kind: 'ok', text: t('attachmentAdded', { id }) })
      await load()
    } catch (caught) {
      setResult({ kind: 'error', text: errorText(caught, t) })
    } finally {
      setBusy(false)
    }
  }

  const offered = Object.entries(types).filter(([, definition]) => definition.show)
  return (
    <section aria-labelledby="attachments-title" class="card">
      <h2 id="attachments-title">{t('attachments')}</h2>
      {attachments === null ? (
        <p>{t('loading')}</p>
      ) : attachments.length === 0 ? (
        <p>{t('noAttachments')}</p>
      ) : (
        <ul class="versions">
          {attachments.map((a) => (
            <li key={a.resId}>
              <button type="button" class="link" onClick={() => void download(a.resId)}>
                {t('attachmentLine', {
                  title: a.title ?? a.chrono ?? String(a.resId),
                  type: a.typeLabel,
                  relation: a.relation,
                })}
              </button>
            </li>
          ))}
        </ul>
      )}
      <form onSubmit={submit}>
        <label for="attachment-type">{t('attachmentType')}</label>
        <select id="attachment-type" value={type} onChange={(e) => setType(e.currentTarget.value)}>
          {offered.map(([id, definition]) => (
            <option key={id} value={id}>
              {definition.label}
            </option>
          ))}
        </select>
        <label for="attachment-title">{t('attachmentTitle')}</label>
        <input id="attachment-title" maxLength={255} value={title} onInput={(e) => setTitle(e.currentTarget.value)} />
        <label for="attachment-file">{t('attachmentFile')}</label>
        <input
          id="attachment-file"
          type="file"
          required
          onChange={(e) => setFile(e.currentTarget.files?.[0] ?? null)}
        />
        <button type="submit" disabled={busy || !file}>
          {t('addAttachment')}
        </button>
        {result ? <Alert kind={result.kind} text={result.text} /> : null}
      </form>
    </section>
  )
}

import { decodeBase64, encodeBase64 } from '@mailroom/sdk'
import { useRef, useState } from 'preact/hooks'
import { addAttachment, readAttachmentFile, readAttachments, readAttachmentTypes } from '../capture/capture-api.js'
import { attachmentName, maarchMoment } from '../capture/record-lines.js'
import { attachmentTypeChoices } from '../capture/reference-options.js'
import { useLoaded } from '../capture/use-loaded.js'
import { Alert } from '../ui/alert.js'
import { ChoiceField } from '../ui/choice-field.js'
import { useConsole } from '../ui/context.js'
import { saveBytes } from '../ui/download.js'
import { errorText } from '../ui/error-text.js'
import { fileFormat } from '../ui/file-format.js'
import { LoadedList } from '../ui/loaded-list.js'

/** The type a new attachment gets when the server does not list its types. */
const DEFAULT_TYPE = 'simple_attachment'

/**
 * A record's attachments (GET /rest/resources/{resId}/attachments): each one's PDF (converted, watermarked)
 * and original file to download; a new one from a chosen file, with a title and a type (POST /rest/attachments).
 */
export function AttachmentsSection(props: { readonly resId: number; readonly onChanged: () => unknown }) {
  const { t, language, keeper } = useConsole()
  const [version, setVersion] = useState(0)
  const attachments = useLoaded((client) => readAttachments(client, props.resId), version)
  const types = useLoaded(readAttachmentTypes)
  const [file, setFile] = useState<File | null>(null)
  const [title, setTitle] = useState('')
  const [type, setType] = useState(DEFAULT_TYPE)
  const [busy, setBusy] = useState(false)
  const form = useRef<HTMLFormElement>(null)
  const [result, setResult] = useState<{ kind: 'ok' | 'error'; text: string } | null>(null)

  const download = async (id: number, which: 'content' | 'originalContent') => {
    setResult(null)
    try {
      const found = await keeper.call((client) => readAttachmentFile(client, id, which))
      saveBytes(decodeBase64(found.encodedDocument), found.filename, found.mimeType)
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
      // The title is optional, as in Maarch 20.10 (the list then shows the type).
      const body = {
        resIdMaster: props.resId,
        type,
        ...(title.trim() ? { title: title.trim() } : {}),
        encodedFile,
        format: fileFormat(file.name),
      }
      const { id } = await keeper.call((client) => addAttachment(client, body))
      setResult({ kind: 'ok', text: t('attachmentAdded', { id }) })
      setTitle('')
      setFile(null)
      form.current?.reset()
      setVersion((v) => v + 1)
      await props.onChanged()
    } catch (caught) {
      setResult({ kind: 'error', text: errorText(caught, t) })
    } finally {
      setBusy(false)
    }
  }

  return (
    <section aria-labelledby="attachments-title" class="card">
      <h2 id="attachments-title">{t('attachments')}</h2>
      <LoadedList loaded={attachments} empty={t('noAttachments')}>
        {(items) => (
          <ul class="attachments">
            {items.map((attachment) => {
              const name = attachmentName(attachment)
              return (
                <li key={attachment.resId}>
                  <p class="attachment-name">{name}</p>
                  <p class="help">
                    {attachment.typeLabel} · {attachment.typistLabel} ·{' '}
                    {maarchMoment(attachment.creationDate, language)}
                  </p>
                  <div class="actions">
                    <button
                      type="button"
                      class="link"
                      aria-label={t('attachmentPdfOf', { name })}
                      onClick={() => void download(attachment.resId, 'content')}
                    >
                      {t('attachmentPdf')}
                    </button>
                    <button
                      type="button"
                      class="link"
                      aria-label={t('attachmentOriginalOf', { name })}
                      onClick={() => void download(attachment.resId, 'originalContent')}
                    >
                      {t('attachmentOriginal')}
                    </button>
                  </div>
                </li>
              )
            })}
          </ul>
        )}
      </LoadedList>
      <form ref={form} onSubmit={submit}>
        <label for="attachment-file">{t('attachmentFile')}</label>
        <input
          id="attachment-file"
          type="file"
          required
          onChange={(e) => setFile(e.currentTarget.files?.[0] ?? null)}
        />
        <label for="attachment-title">{t('attachmentTitle')}</label>
        <input id="attachment-title" value={title} onInput={(e) => setTitle(e.currentTarget.value)} />
        <ChoiceField
          id="attachment-type"
          label={t('attachmentType')}
          choices={types.value ? attachmentTypeChoices(types.value) : null}
          error={types.error}
          value={type}
          onValue={setType}
          required
        />
        <button type="submit" disabled={busy || !file}>
          {t('addAttachment')}
        </button>
        {result ? <Alert kind={result.kind} text={result.text} /> : null}
      </form>
    </section>
  )
}

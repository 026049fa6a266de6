import { decodeBase64, MailroomApiError, type MailroomClient } from '@mailroom/sdk'
import { useCallback, useEffect, useState } from 'preact/hooks'
import { StatusChangeForm } from '../status/status-change-form.js'
import { Alert } from '../ui/alert.js'
import { useConsole } from '../ui/context.js'
import { saveBytes } from '../ui/download.js'
import { errorText } from '../ui/error-text.js'
import { formatValue } from '../ui/format.js'
import { PageHeading } from '../ui/page-heading.js'
import { TableScroll } from '../ui/table-scroll.js'
import { AttachmentsSection } from './attachments-section.js'
import { LinksSection } from './links-section.js'
import { NotesSection } from './notes-section.js'
import { PdfView } from './pdf-view.js'

type History = Awaited<ReturnType<MailroomClient['getHistory']>>['history']

/** The most versions the page looks for (each is asked for until the server says "Incorrect version"). */
const MAX_VERSIONS = 20

interface Version {
  readonly version: number
  readonly filename: string
  readonly encodedDocument: string
}

/** The versions of a record's file, asked for one by one from 1 until the server has no more. */
async function readVersions(client: MailroomClient, resId: number): Promise<Version[]> {
  const versions: Version[] = []
  for (let version = 1; version <= MAX_VERSIONS; version++) {
    try {
      const content = await client.getVersionContent(resId, version)
      versions.push({ version, ...content })
    } catch (error) {
      if (error instanceof MailroomApiError && error.status === 400) break
      throw error
    }
  }
  return versions
}

/**
 * A record: its fields (a search of its id), the watermarked PDF drawn by pdf.js, the original file, its
 * versions and history, the status change, and its notes, attachments and links. Whatever the server refuses
 * (out of perimeter, no file) is shown with the server's message.
 */
export function RecordPage(props: { readonly resId: number }) {
  const { t, language, keeper } = useConsole()
  const { resId } = props
  const [fields, setFields] = useState<Record<string, unknown> | null>(null)
  const [pdf, setPdf] = useState<Blob | null>(null)
  const [pdfError, setPdfError] = useState<string | null>(null)
  const [history, setHistory] = useState<History | null>(null)
  const [versions, setVersions] = useState<Version[] | null>(null)
  const [error, setError] = useState<string | null>(null)

  const loadFieldsAndHistory = useCallback(async () => {
    const [found, events] = await keeper.call((client) =>
      Promise.all([client.search({ select: '*', clause: `res_id = ${resId}` }), client.getHistory(resId)]),
    )
    setFields(found.resources[0] ?? null)
    setHistory(events.history)
  }, [keeper, resId])

  useEffect(() => {
    if (!Number.isInteger(resId) || resId < 1) {
      setError('Parameter resId must be greater than 0')
      return
    }
    void (async () => {
      try {
        const bytes = await keeper.call((client) => client.getContent(resId))
        setPdf(new Blob([bytes], { type: 'application/pdf' }))
      } catch (caught) {
        // Out of perimeter or missing: the server's message is the page's answer.
        if (
          caught instanceof MailroomApiError &&
          (caught.status === 403 || caught.message === 'Document does not exist')
        ) {
          setError(errorText(caught, t))
          return
        }
        setPdfError(errorText(caught, t))
      }
      try {
        await loadFieldsAndHistory()
        setVersions(await keeper.call((client) => readVersions(client, resId)))
      } catch (caught) {
        setError(errorText(caught, t))
      }
    })()
  }, [keeper, resId, t, loadFieldsAndHistory])

  const downloadOriginal = async () => {
    try {
      const original = await keeper.call((client) => client.getOriginalContent(resId, { mode: 'base64' }))
      saveBytes(decodeBase64(original.encodedDocument), original.filename, original.mimeType)
    } catch (caught) {
      setPdfError(errorText(caught, t))
    }
  }

  return (
    <>
      <p>
        <a href="#/search">{t('backToSearch')}</a>
      </p>
      <PageHeading text={t('recordTitle', { resId })} />
      <Alert kind="error" text={error} />
      {error ? null : (
        <div class="record">
          <section aria-labelledby="document-title" class="card">
            <h2 id="document-title">{t('document')}</h2>
            <Alert kind="error" text={pdfError} />
            <div class="actions">
              <button type="button" class="secondary" onClick={() => void downloadOriginal()}>
                {t('downloadOriginal')}
              </button>
              {pdf ? (
                <button
                  type="button"
                  class="secondary"
                  onClick={() => saveBytes(pdf, `${resId}.pdf`, 'application/pdf')}
                >
                  {t('downloadPdf')}
                </button>
              ) : null}
            </div>
            {pdf ? <PdfView pdf={pdf} resId={resId} /> : pdfError ? null : <p>{t('loading')}</p>}
          </section>

          <div class="side">
            <StatusChangeForm title={t('changeStatus')} resIds={[resId]} onChanged={loadFieldsAndHistory} />

            <section aria-labelledby="fields-title" class="card">
              <h2 id="fields-title">{t('fields')}</h2>
              {fields ? (
                <dl class="fields">
                  {Object.entries(fields)
                    .filter(([, value]) => value !== null && value !== '')
                    .map(([name, value]) => (
                      <div key={name}>
                        <dt>{name}</dt>
                        <dd>{formatValue(value, language)}</dd>
                      </div>
                    ))}
                </dl>
              ) : (
                <p>{t('loading')}</p>
              )}
            </section>

            <section aria-labelledby="versions-title" class="card">
              <h2 id="versions-title">{t('versions')}</h2>
              {versions === null ? (
                <p>{t('loading')}</p>
              ) : versions.length === 0 ? (
                <p>{t('noVersions')}</p>
              ) : (
                <ul class="versions">
                  {versions.map((v) => (
                    <li key={v.version}>
                      <button
                        type="button"
                        class="link"
                        onClick={() => saveBytes(decodeBase64(v.encodedDocument), v.filename, 'application/pdf')}
                      >
                        {t('version', { version: v.version })} — {v.filename}
                      </button>
                    </li>
                  ))}
                </ul>
              )}
            </section>
          </div>

          <div class="wide capture-sections">
            <NotesSection resId={resId} onChanged={loadFieldsAndHistory} />
            <AttachmentsSection resId={resId} onChanged={loadFieldsAndHistory} />
            <LinksSection resId={resId} onChanged={loadFieldsAndHistory} />
          </div>

          <section aria-labelledby="history-title" class="card wide">
            <h2 id="history-title">{t('history')}</h2>
            {history === null ? (
              <p>{t('loading')}</p>
            ) : history.length === 0 ? (
              <p>{t('noHistory')}</p>
            ) : (
              <TableScroll label={t('history')}>
                <table class="history">
                  <thead>
                    <tr>
                      <th scope="col">{t('when')}</th>
                      <th scope="col">{t('who')}</th>
                      <th scope="col">{t('what')}</th>
                    </tr>
                  </thead>
                  <tbody>
                    {history.map((entry) => (
                      <tr key={entry.id}>
                        <td>{formatValue(entry.eventDate, language)}</td>
                        <td>{entry.login ?? ''}</td>
                        <td>{entry.info ?? entry.eventType}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </TableScroll>
            )}
          </section>
        </div>
      )}
    </>
  )
}

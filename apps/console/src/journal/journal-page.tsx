import type { MailroomClient } from '@mailroom/sdk'
import { useState } from 'preact/hooks'
import type { MessageKey } from '../i18n/i18n.js'
import { Alert } from '../ui/alert.js'
import { useConsole } from '../ui/context.js'
import { errorText } from '../ui/error-text.js'
import { FieldGrid, type FieldSpec } from '../ui/field-input.js'
import { formatValue } from '../ui/format.js'
import { PageHeading } from '../ui/page-heading.js'
import { TableScroll } from '../ui/table-scroll.js'
import { archiveInconsistencies, type Inconsistency } from './archive-consistency.js'
import { type ChainVerification, chainVerificationText } from './chain-verification.js'

type Journal = Awaited<ReturnType<MailroomClient['readJournal']>>

const SAFE_KEY = 'mailroom.safe'

interface JournalFilters {
  readonly archiveId: string
  readonly originatorOrgRegNumber: string
  readonly fromDate: string
  readonly toDate: string
  readonly limit: string
}

const FIELDS: readonly FieldSpec<keyof JournalFilters>[] = [
  ['archiveId', 'archiveId', 'text'],
  ['originatorOrgRegNumber', 'originator', 'text'],
  ['fromDate', 'fromDate', 'date'],
  ['toDate', 'toDate', 'date'],
  ['limit', 'limit', 'number'],
]

const PROBLEMS: Record<Inconsistency['problem'], MessageKey> = {
  'failed-operation': 'problemFailed',
  'hash-differs': 'problemHash',
  'time-goes-back': 'problemTime',
}

/** The server's verification of the safe's chain, or why it could not be had. */
type ChainState = { readonly verification: ChainVerification } | { readonly error: string }

/**
 * The journal of a digital safe with the filters of the journal read, page by page (after the last event
 * shown), whether the safe's hash chain verifies (asked once per new read, not per page), and what the events
 * show about their archives. The SERVICE-AUTH cookie carries the session's token.
 */
export function JournalPage() {
  const { t, language, keeper } = useConsole()
  const [safe, setSafe] = useState(() => localStorage.getItem(SAFE_KEY) ?? '')
  const [filters, setFilters] = useState<JournalFilters>({
    archiveId: '',
    originatorOrgRegNumber: '',
    fromDate: '',
    toDate: '',
    limit: '50',
  })
  const [journal, setJournal] = useState<Journal | null>(null)
  const [pages, setPages] = useState<string[]>([])
  const [error, setError] = useState<string | null>(null)
  const [chain, setChain] = useState<ChainState | null>(null)
  const [busy, setBusy] = useState(false)

  const read = async (after: string | undefined, history: string[]) => {
    setBusy(true)
    setError(null)
    try {
      const owner = safe.trim()
      localStorage.setItem(SAFE_KEY, owner)
      const params = {
        ...(filters.archiveId ? { archiveId: filters.archiveId } : {}),
        ...(filters.originatorOrgRegNumber ? { originatorOrgRegNumber: filters.originatorOrgRegNumber } : {}),
        ...(filters.fromDate ? { fromDate: filters.fromDate } : {}),
        ...(filters.toDate ? { toDate: filters.toDate } : {}),
        ...(Number(filters.limit) > 0 ? { limit: Number(filters.limit) } : {}),
        ...(after ? { after } : {}),
      }
      setJournal(
        await keeper.call((client) => {
          keeper.armServiceAuth()
          return client.readJournal(owner, params)
        }),
      )
      setPages(history)
      if (after === undefined) {
        setChain(null)
        try {
          setChain({ verification: await keeper.call((client) => client.verifyJournalChain(owner)) })
        } catch (caught) {
          setChain({ error: errorText(caught, t) })
        }
      }
    } catch (caught) {
      setJournal(null)
      setChain(null)
      setError(errorText(caught, t))
    } finally {
      setBusy(false)
    }
  }

  const events = journal?.lifeCycleEvents ?? []
  const problems = journal ? archiveInconsistencies(events) : []
  const last = events.at(-1)?.eventId
  const full = Number(filters.limit) > 0 && events.length >= Number(filters.limit)

  return (
    <>
      <PageHeading text={t('journalTitle')} />
      <form
        class="card"
        onSubmit={(e) => {
          e.preventDefault()
          void read(undefined, [])
        }}
      >
        <FieldGrid
          idPrefix="journal"
          fields={FIELDS}
          values={filters}
          min={1}
          onValue={(field, value) => setFilters({ ...filters, [field]: value })}
        >
          <div class="field">
            <label for="safe">{t('safe')}</label>
            <input id="safe" required value={safe} onInput={(e) => setSafe(e.currentTarget.value)} />
          </div>
        </FieldGrid>
        <button type="submit" disabled={busy}>
          {t('read')}
        </button>
        <Alert kind="error" text={error} />
      </form>

      {journal && chain ? <ChainSummary chain={chain} /> : null}

      {journal ? (
        <section aria-labelledby="events-title">
          <h2 id="events-title">{t('events', { count: events.length })}</h2>
          {problems.length === 0 ? (
            <p class="alert alert-ok" role="status">
              {t('archivesAgree')}
            </p>
          ) : (
            <div class="alert alert-error" role="alert">
              <p>{t('archivesDisagree')}</p>
              <ul>
                {problems.map((p) => (
                  <li key={`${p.eventId}-${p.problem}`}>
                    {p.eventId}: {t(PROBLEMS[p.problem])}
                  </li>
                ))}
              </ul>
            </div>
          )}
          <TableScroll label={t('journalTitle')}>
            <table class="journal">
              <thead>
                <tr>
                  <th scope="col">{t('when')}</th>
                  <th scope="col">{t('eventType')}</th>
                  <th scope="col">{t('objectId')}</th>
                  <th scope="col">{t('resource')}</th>
                  <th scope="col">{t('who')}</th>
                  <th scope="col">{t('hash')}</th>
                </tr>
              </thead>
              <tbody>
                {events.map((event) => {
                  const latest = event.eventInfo.at(-1)
                  return (
                    <tr key={event.eventId}>
                      <td>{formatValue(event.timestamp, language)}</td>
                      <td>{event.eventType.replace(/^recordsManagement\//, '')}</td>
                      <td>{event.objectId}</td>
                      <td>{latest ? <a href={`#/record/${latest.resId}`}>{latest.resId}</a> : ''}</td>
                      <td>{event.accountId}</td>
                      <td class="hash">{latest?.hash.slice(0, 16) ?? ''}…</td>
                    </tr>
                  )
                })}
              </tbody>
            </table>
          </TableScroll>
          <nav class="pager" aria-label={t('events', { count: events.length })}>
            <button
              type="button"
              class="secondary"
              disabled={busy || pages.length === 0}
              onClick={() => void read(pages.at(-2), pages.slice(0, -1))}
            >
              {t('previous')}
            </button>
            <button
              type="button"
              class="secondary"
              disabled={busy || !full || !last}
              onClick={() => void read(last, [...pages, last!])}
            >
              {t('next')}
            </button>
          </nav>
        </section>
      ) : null}
    </>
  )
}

/** Whether the chain verifies, said first and plainly; then its head (worth keeping elsewhere). */
function ChainSummary(props: { readonly chain: ChainState }) {
  const { t } = useConsole()
  const chain = props.chain
  if ('error' in chain) {
    return (
      <section aria-labelledby="chain-title">
        <h2 id="chain-title">{t('chainTitle')}</h2>
        <Alert kind="error" text={t('chainUnverified', { message: chain.error })} />
      </section>
    )
  }
  const verification = chain.verification
  return (
    <section aria-labelledby="chain-title" class="chain">
      <h2 id="chain-title">{t('chainTitle')}</h2>
      <Alert kind={verification.verified ? 'ok' : 'error'} text={chainVerificationText(verification, t)} />
      {verification.head ? (
        <p class="help">
          {t('chainHead', { sequence: verification.head.sequence })}
          <code>{verification.head.hash}</code>
        </p>
      ) : null}
      {verification.pendingEvents > 0 ? (
        <p class="help">{t('chainPending', { count: verification.pendingEvents })}</p>
      ) : null}
      <p class="help">{t('chainFilesOnServer')}</p>
    </section>
  )
}

import type { MailroomClient } from '@mailroom/sdk'
import { useRef, useState } from 'preact/hooks'
import {
  type ContactRow,
  readDoctypes,
  readEntities,
  readPriorities,
  readStatuses,
  searchBySender,
} from '../capture/capture-api.js'
import { doctypeGroups, entityChoices, priorityChoices, statusChoices } from '../capture/reference-options.js'
import { SenderPicker } from '../capture/sender-picker.js'
import { useLoaded } from '../capture/use-loaded.js'
import type { MessageKey } from '../i18n/i18n.js'
import { StatusChangeForm } from '../status/status-change-form.js'
import { Alert } from '../ui/alert.js'
import { ChoiceField } from '../ui/choice-field.js'
import { useConsole } from '../ui/context.js'
import { errorText } from '../ui/error-text.js'
import { FieldGrid, type FieldSpec } from '../ui/field-input.js'
import { formatValue } from '../ui/format.js'
import { PageHeading } from '../ui/page-heading.js'
import { TableScroll } from '../ui/table-scroll.js'
import {
  buildClause,
  errorPosition,
  excerptParts,
  NO_FILTERS,
  type SearchFilters,
  withinRecords,
} from './clause-builder.js'

const PAGE_SIZE = 20

/** The result columns: res_view_letterbox column and its heading. */
const COLUMNS: readonly (readonly [column: string, heading: MessageKey])[] = [
  ['res_id', 'colResId'],
  ['alt_identifier', 'colChrono'],
  ['subject', 'colSubject'],
  ['status', 'colStatus'],
  ['type_label', 'colDoctype'],
  ['destination', 'colDestination'],
  ['creation_date', 'colCreated'],
]

/** The filters typed in; status, document type, destination and priority are lists above them. */
const FILTER_FIELDS: readonly FieldSpec<keyof SearchFilters>[] = [
  ['words', 'words', 'text'],
  ['createdFrom', 'createdFrom', 'date'],
  ['createdTo', 'createdTo', 'date'],
  ['chrono', 'chrono', 'text'],
  ['subjectWords', 'subjectWords', 'text'],
  ['customField', 'customField', 'number'],
  ['customValue', 'customValue', 'text'],
]

interface Sort {
  readonly column: string
  readonly descending: boolean
}

interface Results {
  readonly rows: readonly Record<string, unknown>[]
  readonly total: number
  readonly page: number
}

/** The clause narrowed to a sender's records, when one is chosen (the records found by POST /rest/search). */
async function senderClause(client: MailroomClient, clause: string, sender: ContactRow | null): Promise<string> {
  return sender ? withinRecords(clause, await searchBySender(client, sender.id)) : clause
}

/**
 * Search: the filter builder writes the clause (which may also be typed) from lists of the server's
 * statuses, document types, entities and priorities; a chosen sender narrows it to that contact's records.
 * The server answers one page of the perimeter's records and, with a second search of the ids alone, how
 * many match in all.
 */
export function SearchPage() {
  const { t, language, keeper } = useConsole()
  const statuses = useLoaded(readStatuses)
  const doctypes = useLoaded(readDoctypes)
  const entities = useLoaded(readEntities)
  const priorities = useLoaded(readPriorities)
  const [sender, setSender] = useState<ContactRow | null>(null)
  const [filters, setFilters] = useState<SearchFilters>(NO_FILTERS)
  const [clause, setClause] = useState('1=1')
  const [sort, setSort] = useState<Sort>({ column: 'res_id', descending: true })
  const [results, setResults] = useState<Results | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const [selected, setSelected] = useState<readonly number[]>([])
  const clauseField = useRef<HTMLTextAreaElement>(null)

  const setFilter = (field: keyof SearchFilters, value: string) => {
    const next = { ...filters, [field]: value }
    setFilters(next)
    setClause(buildClause(next))
  }

  const run = async (page: number, order: Sort = sort, keepSelection = false) => {
    setBusy(true)
    setError(null)
    try {
      // fulltext_excerpt: the best matching passage of each record's files (null without a fulltext condition).
      const select = [...COLUMNS.map(([column]) => column), 'fulltext_excerpt'].join(', ')
      const orderBy = [
        `${order.column} ${order.descending ? 'desc' : 'asc'}`,
        ...(order.column === 'res_id' ? [] : ['res_id desc']),
      ]
      const [found, all] = await keeper.call(async (client) => {
        const narrowed = await senderClause(client, clause, sender)
        return Promise.all([
          client.search({ select, clause: narrowed, orderBy, limit: PAGE_SIZE, offset: page * PAGE_SIZE }),
          client.search({ select: 'res_id', clause: narrowed }),
        ])
      })
      setResults({ rows: found.resources, total: all.count, page })
      if (!keepSelection) setSelected([])
    } catch (caught) {
      const message = errorText(caught, t)
      setError(message)
      setResults(null)
      // Put the caret where the server says the clause goes wrong.
      const position = errorPosition(message)
      const field = clauseField.current
      if (position !== null && field) {
        field.focus()
        field.setSelectionRange(position - 1, position)
      }
    } finally {
      setBusy(false)
    }
  }

  const sortBy = (column: string) => {
    const next = { column, descending: sort.column === column ? !sort.descending : false }
    setSort(next)
    if (results) void run(0, next)
  }

  const pages = results ? Math.max(1, Math.ceil(results.total / PAGE_SIZE)) : 1

  return (
    <>
      <PageHeading text={t('searchTitle')} />
      <form
        class="card search-form"
        onSubmit={(e) => {
          e.preventDefault()
          void run(0)
        }}
      >
        <fieldset>
          <legend>{t('filters')}</legend>
          <FieldGrid idPrefix="filter" fields={FILTER_FIELDS} values={filters} min={0} onValue={setFilter}>
            <ChoiceField
              id="filter-status"
              label={t('status')}
              choices={statuses.value ? statusChoices(statuses.value, true) : null}
              error={statuses.error}
              value={filters.status}
              onValue={(value) => setFilter('status', value)}
              emptyLabel={t('any')}
            />
            <ChoiceField
              id="filter-doctype"
              label={t('doctype')}
              choices={doctypes.value ? doctypeGroups(doctypes.value) : null}
              error={doctypes.error}
              value={filters.doctype}
              onValue={(value) => setFilter('doctype', value)}
              emptyLabel={t('any')}
            />
            <ChoiceField
              id="filter-destination"
              label={t('destination')}
              choices={
                entities.value ? entityChoices(entities.value, { allowedOnly: false, value: 'entity_id' }) : null
              }
              error={entities.error}
              value={filters.destination}
              onValue={(value) => setFilter('destination', value)}
              emptyLabel={t('any')}
            />
            <ChoiceField
              id="filter-priority"
              label={t('priority')}
              choices={priorities.value ? priorityChoices(priorities.value) : null}
              error={priorities.error}
              value={filters.priority}
              onValue={(value) => setFilter('priority', value)}
              emptyLabel={t('any')}
            />
            <SenderPicker id="filter-sender" label={t('sender')} chosen={sender} onChoose={setSender} />
          </FieldGrid>
        </fieldset>
        <label for="clause">{t('clause')}</label>
        <textarea
          id="clause"
          ref={clauseField}
          rows={2}
          spellcheck={false}
          aria-describedby={error ? 'clause-help clause-error' : 'clause-help'}
          aria-invalid={error ? true : undefined}
          value={clause}
          onInput={(e) => setClause(e.currentTarget.value)}
        />
        <p id="clause-help" class="help">
          {t('clauseHelp')}
        </p>
        <Alert kind="error" id="clause-error" text={error} />
        <div class="actions">
          <button type="submit" disabled={busy}>
            {t('search')}
          </button>
          <button
            type="button"
            class="secondary"
            onClick={() => {
              setFilters(NO_FILTERS)
              setSender(null)
              setClause('1=1')
              setResults(null)
              setError(null)
            }}
          >
            {t('clear')}
          </button>
        </div>
      </form>

      {results ? (
        <section aria-labelledby="results-title">
          <h2 id="results-title">{t('results')}</h2>
          <p role="status" class="count">
            {t('resultCount', { count: results.total })}
          </p>
          {results.rows.length === 0 ? (
            <p>{t('noResults')}</p>
          ) : (
            <TableScroll label={t('results')}>
              <table class="results">
                <thead>
                  <tr>
                    <th scope="col">{t('select')}</th>
                    {COLUMNS.map(([column, heading]) => (
                      <th
                        key={column}
                        scope="col"
                        aria-sort={sort.column === column ? (sort.descending ? 'descending' : 'ascending') : undefined}
                      >
                        <button
                          type="button"
                          class="sort"
                          onClick={() => sortBy(column)}
                          aria-label={t('sortBy', { column: t(heading) })}
                        >
                          {t(heading)}
                          <span aria-hidden="true">
                            {sort.column === column ? (sort.descending ? ' ▼' : ' ▲') : ''}
                          </span>
                        </button>
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {results.rows.map((row) => (
                    <tr key={String(row.res_id)}>
                      <td>
                        <input
                          type="checkbox"
                          aria-label={t('selectRecord', { resId: String(row.res_id) })}
                          checked={selected.includes(Number(row.res_id))}
                          onChange={(e) => {
                            const id = Number(row.res_id)
                            setSelected(e.currentTarget.checked ? [...selected, id] : selected.filter((s) => s !== id))
                          }}
                        />
                      </td>
                      {COLUMNS.map(([column]) => (
                        <td key={column}>
                          {column === 'res_id' ? (
                            <a href={`#/record/${String(row.res_id)}`}>{String(row.res_id)}</a>
                          ) : (
                            formatValue(row[column], language)
                          )}
                          {column === 'subject' && typeof row.fulltext_excerpt === 'string' ? (
                            <p class="excerpt">
                              {excerptParts(row.fulltext_excerpt).map((part, index) =>
                                part.found ? <mark key={index}>{part.text}</mark> : part.text,
                              )}
                            </p>
                          ) : null}
                        </td>
                      ))}
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableScroll>
          )}
          {selected.length > 0 ? (
            <StatusChangeForm
              title={t('bulkTitle', { count: selected.length })}
              resIds={selected}
              onChanged={() => run(results.page, sort, true)}
            />
          ) : null}
          <nav class="pager" aria-label={t('page', { page: results.page + 1, pages })}>
            <button
              type="button"
              class="secondary"
              disabled={busy || results.page === 0}
              onClick={() => void run(results.page - 1)}
            >
              {t('previous')}
            </button>
            <span>{t('page', { page: results.page + 1, pages })}</span>
            <button
              type="button"
              class="secondary"
              disabled={busy || results.page + 1 >= pages}
              onClick={() => void run(results.page + 1)}
            >
              {t('next')}
            </button>
          </nav>
        </section>
      ) : null}
    </>
  )
}

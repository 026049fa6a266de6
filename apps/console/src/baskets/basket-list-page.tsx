import type { BasketAddress } from '@mailroom/sdk'
import { useEffect, useState } from 'preact/hooks'
import { Alert } from '../ui/alert.js'
import { useConsole } from '../ui/context.js'
import { errorText } from '../ui/error-text.js'
import { LockIcon } from '../ui/lock-icon.js'
import { PageHeading } from '../ui/page-heading.js'
import { TableScroll } from '../ui/table-scroll.js'
import { basketHash } from './basket-address.js'
import type { BasketList } from './basket-types.js'
import { displayLines } from './display-items.js'
import { takeMessage } from './flash.js'

const PAGE_SIZES = [5, 10, 25, 50] as const

/**
 * A basket's letters, a page at a time (GET /rest/resourcesList/…): chrono, subject, status and the items the
 * group's list shows; a letter someone else holds says who. A chrono opens the letter.
 */
export function BasketListPage(props: { readonly basket: BasketAddress }) {
  const { t, language, keeper } = useConsole()
  const { basket } = props
  const [limit, setLimit] = useState<number>(10)
  const [page, setPage] = useState(0)
  const [list, setList] = useState<BasketList | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [message] = useState(takeMessage)

  useEffect(() => {
    let current = true
    setError(null)
    keeper
      .call((client) => client.getBasketList(basket, { limit, offset: page * limit }))
      .then((answer) => current && setList(answer))
      .catch((caught: unknown) => current && setError(errorText(caught, t)))
    return () => {
      current = false
    }
  }, [keeper, t, basket.userId, basket.groupId, basket.basketId, limit, page])

  const pages = list ? Math.max(1, Math.ceil(list.count / limit)) : 1
  return (
    <>
      <p>
        <a href="#/baskets">{t('backToBaskets')}</a>
      </p>
      <PageHeading text={list?.basketLabel ?? t('navBaskets')} />
      <Alert kind="ok" text={message} />
      <Alert kind="error" text={error} />
      {list === null ? (
        error ? null : (
          <p>{t('loading')}</p>
        )
      ) : (
        <section aria-labelledby="letters-title">
          <h2 id="letters-title" class="count">
            {t('basketCount', { count: list.count })}
          </h2>
          <label class="inline">
            <span>{t('perPage')}</span>
            <select
              value={String(limit)}
              onChange={(e) => {
                setLimit(Number(e.currentTarget.value))
                setPage(0)
              }}
            >
              {PAGE_SIZES.map((size) => (
                <option key={size} value={String(size)}>
                  {size}
                </option>
              ))}
            </select>
          </label>
          {list.resources.length === 0 ? (
            <p>{t('basketEmpty')}</p>
          ) : (
            <TableScroll label={list.basketLabel}>
              <table class="letters">
                <thead>
                  <tr>
                    <th scope="col">{t('colChrono')}</th>
                    <th scope="col">{t('colSubject')}</th>
                    <th scope="col">{t('colStatus')}</th>
                  </tr>
                </thead>
                <tbody>
                  {list.resources.map((row) => (
                    <tr key={row.resId} class={row.isLocked ? 'locked' : undefined}>
                      <td>
                        <a
                          href={basketHash(basket, row.resId)}
                          aria-label={t('openLetter', { chrono: row.chrono ?? String(row.resId) })}
                        >
                          {row.chrono ?? row.resId}
                        </a>
                      </td>
                      <td>
                        <span class="subject">{row.subject ?? ''}</span>
                        {row.isLocked ? (
                          <p class="lock">
                            <LockIcon />
                            {t('lockedBy', { user: row.locker ?? '' })}
                          </p>
                        ) : null}
                        <ul class="items">
                          {displayLines(row.display, t, language).map((line) => (
                            <li key={line.key}>
                              <span class="muted">{line.label}: </span>
                              {line.text}
                            </li>
                          ))}
                        </ul>
                      </td>
                      <td>{row.statusLabel ?? ''}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableScroll>
          )}
          <nav class="pager" aria-label={t('page', { page: page + 1, pages })}>
            <button type="button" class="secondary" disabled={page === 0} onClick={() => setPage(page - 1)}>
              {t('previous')}
            </button>
            <span>{t('page', { page: page + 1, pages })}</span>
            <button type="button" class="secondary" disabled={page + 1 >= pages} onClick={() => setPage(page + 1)}>
              {t('next')}
            </button>
          </nav>
        </section>
      )}
    </>
  )
}

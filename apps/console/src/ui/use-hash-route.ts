import { useEffect, useState } from 'preact/hooks'

/** A page of the console and its parameters, read from the URL's hash (#/record/12, #/basket/3/4/2/21). */
export interface Route {
  readonly page: 'baskets' | 'basket' | 'search' | 'record' | 'create' | 'journal' | 'organisation'
  /** The first parameter (a record's id). */
  readonly id: string | null
  /** Every parameter after the page, in order. */
  readonly params: readonly string[]
}

const PAGES = new Set<Route['page']>(['baskets', 'basket', 'search', 'record', 'create', 'journal', 'organisation'])

/** The route of a hash; the baskets (a clerk's home) for an empty or unknown one. */
export function parseHash(hash: string): Route {
  const [page = '', ...params] = hash.replace(/^#\/?/, '').split('/')
  return PAGES.has(page as Route['page'])
    ? { page: page as Route['page'], id: params[0] || null, params: params.filter((p) => p !== '') }
    : { page: 'baskets', id: null, params: [] }
}

/** The current route; hash routing keeps the console a set of static files under any path. */
export function useHashRoute(): Route {
  const [route, setRoute] = useState(() => parseHash(window.location.hash))
  useEffect(() => {
    const update = () => setRoute(parseHash(window.location.hash))
    window.addEventListener('hashchange', update)
    return () => window.removeEventListener('hashchange', update)
  }, [])
  return route
}

import { useEffect, useState } from 'preact/hooks'

/** A page of the console and its parameter, read from the URL's hash (#/record/12). */
export interface Route {
  readonly page: 'search' | 'record' | 'create' | 'journal' | 'organisation'
  readonly id: string | null
}

const PAGES = new Set<Route['page']>(['search', 'record', 'create', 'journal', 'organisation'])

export function parseHash(hash: string): Route {
  const [page = '', id = null] = hash.replace(/^#\/?/, '').split('/')
  return PAGES.has(page as Route['page'])
    ? { page: page as Route['page'], id: id || null }
    : { page: 'search', id: null }
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

import { useEffect, useLayoutEffect, useMemo, useState } from 'preact/hooks'
import { BasketPage } from './baskets/basket-page.js'
import { BasketsHomePage } from './baskets/baskets-home-page.js'
import { readProfile } from './capture/capture-api.js'
import { type Abilities, abilitiesOf, EVERY_ABILITY } from './capture/reference-options.js'
import { CannotIndex, CreatePage } from './create/create-page.js'
import { browserLanguage, LANGUAGES, type Language, translator } from './i18n/i18n.js'
import { JournalPage } from './journal/journal-page.js'
import { OrganisationPage } from './organisation/organisation-page.js'
import { RecordPage } from './record/record-page.js'
import { SearchPage } from './search/search-page.js'
import { type Session, SessionKeeper } from './session/session.js'
import { SignInPage } from './session/sign-in-page.js'
import { Console } from './ui/context.js'
import { useHashRoute } from './ui/use-hash-route.js'

const LANGUAGE_KEY = 'mailroom.language'

function initialLanguage(): Language {
  const chosen = localStorage.getItem(LANGUAGE_KEY)
  return chosen === 'fr' || chosen === 'en' ? chosen : browserLanguage(navigator.languages ?? [navigator.language])
}

/** The console: sign-in until there is a session, then the pages behind a header with navigation. */
export function App() {
  const [language, setLanguage] = useState<Language>(initialLanguage)
  const t = useMemo(() => translator(language), [language])
  const [session, setSession] = useState<Session | null>(null)
  const [expired, setExpired] = useState(false)
  const keeper = useMemo(
    () =>
      new SessionKeeper((next, wasExpired) => {
        setSession(next)
        setExpired(wasExpired)
      }),
    [],
  )
  const [restored, setRestored] = useState(false)
  const [root, setRoot] = useState(false)
  const [abilities, setAbilities] = useState<Abilities | null>(null)
  const route = useHashRoute()

  // What the person may do (their groups' privileges): pages and forms they may not use are not offered.
  // A server that cannot say (no GET /rest/currentUser/profile) gets everything offered, and its refusals shown.
  useEffect(() => {
    setAbilities(null)
    if (!session) return
    let current = true
    keeper
      .call(readProfile)
      .then((profile) => current && setAbilities(abilitiesOf(profile)))
      .catch(() => current && setAbilities(EVERY_ABILITY))
    return () => {
      current = false
    }
  }, [keeper, session])

  // Only root users may read the organisation: ask the server (the interface has no "what may I do" read).
  useEffect(() => {
    setRoot(false)
    if (!session) return
    let current = true
    keeper
      .call((client) => client.admin.listUsers())
      .then(() => current && setRoot(true))
      .catch(() => {})
    return () => {
      current = false
    }
  }, [keeper, session])

  useEffect(() => {
    setSession(keeper.restore())
    setRestored(true)
  }, [keeper])
  // A layout effect, so the page never shows words of one language under the other's lang attribute.
  useLayoutEffect(() => {
    document.documentElement.lang = language
  }, [language])

  const chooseLanguage = (next: Language) => {
    localStorage.setItem(LANGUAGE_KEY, next)
    setLanguage(next)
  }

  const languagePicker = (
    <label class="language">
      <span>{t('language')}</span>
      <select value={language} onChange={(e) => chooseLanguage(e.currentTarget.value as Language)}>
        {LANGUAGES.map((code) => (
          <option key={code} value={code}>
            {code === 'fr' ? 'Français' : 'English'}
          </option>
        ))}
      </select>
    </label>
  )

  if (!restored) return null
  if (!session) {
    return (
      <>
        <header class="top">
          <span class="brand">{t('appName')}</span>
          {languagePicker}
        </header>
        <SignInPage t={t} keeper={keeper} expired={expired} />
      </>
    )
  }

  const link = (page: string, label: string) => (
    <a
      href={`#/${page}`}
      aria-current={route.page === page || (page === 'baskets' && route.page === 'basket') ? 'page' : undefined}
    >
      {label}
    </a>
  )

  return (
    <Console.Provider value={{ t, language, session, keeper, abilities: abilities ?? EVERY_ABILITY }}>
      {/* A button, not a #main link: the hash holds the route. */}
      <button type="button" class="skip" onClick={() => document.getElementById('main')?.focus()}>
        {t('skipToContent')}
      </button>
      <header class="top">
        <span class="brand">{t('appName')}</span>
        <nav aria-label={t('appName')}>
          {link('baskets', t('navBaskets'))}
          {link('search', t('navSearch'))}
          {abilities?.canIndex ? link('create', t('navCreate')) : null}
          {link('journal', t('navJournal'))}
          {root ? link('organisation', t('navOrganisation')) : null}
        </nav>
        <span class="who">{t('signedInAs', { login: session.login })}</span>
        {languagePicker}
        <button type="button" class="secondary" onClick={() => keeper.signOut()}>
          {t('signOut')}
        </button>
      </header>
      <main id="main" tabIndex={-1}>
        {route.page === 'baskets' ? <BasketsHomePage /> : null}
        {route.page === 'basket' ? <BasketPage params={route.params} /> : null}
        {route.page === 'search' ? <SearchPage /> : null}
        {route.page === 'record' ? <RecordPage resId={Number(route.id)} key={route.id} /> : null}
        {route.page === 'create' ? (
          abilities === null ? (
            <p>{t('loading')}</p>
          ) : abilities.canIndex ? (
            <CreatePage />
          ) : (
            <CannotIndex />
          )
        ) : null}
        {route.page === 'journal' ? <JournalPage /> : null}
        {route.page === 'organisation' ? <OrganisationPage /> : null}
      </main>
    </Console.Provider>
  )
}

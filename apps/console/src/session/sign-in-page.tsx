import { useEffect, useState } from 'preact/hooks'
import type { Translate } from '../i18n/i18n.js'
import { Alert } from '../ui/alert.js'
import { errorText } from '../ui/error-text.js'
import { PageHeading } from '../ui/page-heading.js'
import { type ProviderSignIn, providerSignIn, providerSignInError, type SessionKeeper } from './session.js'

/** The sign-in form: POST /rest/authenticate through the SDK; the server's message on failure. */
export function SignInPage(props: {
  readonly t: Translate
  readonly keeper: SessionKeeper
  readonly expired: boolean
}) {
  const { t, keeper } = props
  const [login, setLogin] = useState('')
  const [password, setPassword] = useState('')
  const [error, setError] = useState<string | null>(() => providerSignInError())
  const [busy, setBusy] = useState(false)
  const [provider, setProvider] = useState<ProviderSignIn | null>(null)
  useEffect(() => {
    void providerSignIn().then(setProvider)
  }, [])

  const submit = async (event: Event) => {
    event.preventDefault()
    setBusy(true)
    setError(null)
    try {
      await keeper.signIn(login.trim(), password)
    } catch (caught) {
      setError(errorText(caught, t))
      setBusy(false)
    }
  }

  return (
    <main id="main" class="sign-in">
      <PageHeading text={t('signInTitle')} />
      {props.expired ? <Alert kind="error" text={t('sessionExpired')} /> : null}
      {provider ? (
        <p class="card">
          <a class="button" href={provider.url}>
            {t('signInWith', { provider: provider.providerName })}
          </a>
          <span class="muted"> {t('orWithPassword')}</span>
        </p>
      ) : null}
      <form onSubmit={submit} class="card">
        <label for="login">{t('login')}</label>
        <input
          id="login"
          name="login"
          autocomplete="username"
          required
          value={login}
          onInput={(e) => setLogin(e.currentTarget.value)}
        />
        <label for="password">{t('password')}</label>
        <input
          id="password"
          name="password"
          type="password"
          autocomplete="current-password"
          required
          value={password}
          onInput={(e) => setPassword(e.currentTarget.value)}
        />
        <button type="submit" disabled={busy}>
          {t('signIn')}
        </button>
        <Alert kind="error" text={error} />
      </form>
    </main>
  )
}

import { createHash, randomBytes } from 'node:crypto'
import type { TestIdentityProvider } from './oidc-provider-server.js'

/** The cookies a browser would keep for the provider, by name. */
class CookieJar {
  readonly #cookies = new Map<string, string>()
  take(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';')
      const at = pair!.indexOf('=')
      this.#cookies.set(pair!.slice(0, at).trim(), pair!.slice(at + 1))
    }
  }
  header(): string {
    return [...this.#cookies].map(([name, value]) => `${name}=${value}`).join('; ')
  }
}

/**
 * Signs `login` in at the test provider's development pages the way a browser would (the code flow with
 * PKCE, its login form and its consent form), and returns the tokens of the code exchange: a real access
 * token of the provider, for Mailroom's audience.
 */
export async function providerTokens(
  provider: TestIdentityProvider,
  options: { readonly login: string; readonly redirectUri: string },
): Promise<{ readonly accessToken: string; readonly idToken: string }> {
  const jar = new CookieJar()
  const verifier = randomBytes(32).toString('base64url')
  const challenge = createHash('sha256').update(verifier).digest('base64url')
  const go = async (url: string, init: RequestInit = {}) => {
    const response = await fetch(new URL(url, provider.issuer), {
      ...init,
      redirect: 'manual',
      headers: { ...(init.headers as Record<string, string>), cookie: jar.header() },
    })
    jar.take(response)
    return response
  }
  const authorize = new URL('/auth', provider.issuer)
  authorize.search = new URLSearchParams({
    client_id: provider.clientId,
    response_type: 'code',
    scope: 'openid profile',
    redirect_uri: options.redirectUri,
    code_challenge: challenge,
    code_challenge_method: 'S256',
    state: randomBytes(8).toString('hex'),
    nonce: randomBytes(8).toString('hex'),
    resource: provider.audience,
  }).toString()
  let response = await go(authorize.href)
  // Follow redirects; answer the login form, then the consent form; stop at the redirect to Mailroom.
  for (let step = 0; step < 12; step++) {
    const location = response.headers.get('location')
    if (location?.startsWith(options.redirectUri)) {
      const code = new URL(location).searchParams.get('code')
      if (!code) throw new Error(`the provider sent back no code: ${location}`)
      return exchange(provider, code, verifier, options.redirectUri)
    }
    if (location) {
      response = await go(location)
      continue
    }
    const page = await response.text()
    const action = /<form[^>]*action="([^"]+)"/.exec(page)?.[1]
    const prompt = /name="prompt" value="(\w+)"/.exec(page)?.[1]
    if (!action || !prompt)
      throw new Error(`unexpected page from the provider (${response.status}): ${page.slice(0, 300)}`)
    const fields = new URLSearchParams({
      prompt,
      ...(prompt === 'login' ? { login: options.login, password: 'any' } : {}),
    })
    response = await go(action, {
      method: 'POST',
      body: fields.toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    })
  }
  throw new Error('the provider never sent the browser back')
}

async function exchange(provider: TestIdentityProvider, code: string, verifier: string, redirectUri: string) {
  const response = await fetch(new URL('/token', provider.issuer), {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      authorization: `Basic ${Buffer.from(`${provider.clientId}:${provider.clientSecret}`).toString('base64')}`,
    },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      redirect_uri: redirectUri,
      code_verifier: verifier,
      resource: provider.audience,
    }).toString(),
  })
  const body = (await response.json()) as { access_token?: string; id_token?: string; error?: string }
  if (!body.access_token || !body.id_token) throw new Error(`token exchange refused: ${JSON.stringify(body)}`)
  return { accessToken: body.access_token, idToken: body.id_token }
}

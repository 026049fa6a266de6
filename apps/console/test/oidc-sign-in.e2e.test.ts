import { existsSync } from 'node:fs'
import {
  freeLoopbackPort,
  startTestIdentityProvider,
  startTestServer,
  type TestIdentityProvider,
  type TestServer,
} from '@mailroom/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Browser, launchBrowser, skipBrowserTests } from './browser.js'
import { CONSOLE_DIST } from './console-dist.js'

const skip = skipBrowserTests()
let browser: Browser
let provider: TestIdentityProvider
let server: TestServer

beforeAll(async () => {
  if (skip) return
  if (!existsSync(`${CONSOLE_DIST}/index.html`)) throw new Error(`the console is not built (${CONSOLE_DIST})`)
  provider = await startTestIdentityProvider()
  const port = await freeLoopbackPort()
  const callback = `http://127.0.0.1:${port}/rest/authenticate/oidc/callback`
  provider.allowRedirects([callback])
  server = await startTestServer({
    port,
    http: { consoleDir: CONSOLE_DIST },
    mailroom: {
      oidc: provider.settingsFor(callback, 'Keycloak'),
    },
  })
  const bbain = (await server.mailroom.organisation.export()).users!.find((u) => u.login === 'bbain')!
  await server.mailroom.organisation.apply({ version: 1, users: [{ ...bbain, authentication: 'oidc' }] })
  browser = await launchBrowser()
}, 120_000)

afterAll(async () => {
  await browser?.close()
  await server?.close()
  await provider?.stop()
})

describe.skipIf(skip)('console: sign in through the OpenID Connect provider', () => {
  it('goes to the provider, comes back signed in, with no token left in the address bar', async () => {
    const page = await browser.context.newPage()
    await page.goto(`${server.baseUrl}/console/`)
    await page.getByRole('link', { name: 'Sign in with Keycloak' }).click()
    // The provider's own pages: its login form (any password in development), then its consent.
    await page.getByPlaceholder('Enter any login').fill('bbain')
    await page.getByPlaceholder('and password').fill('whatever')
    await page.getByRole('button', { name: 'Sign-in' }).click()
    await page.getByRole('button', { name: 'Continue' }).click()
    await page.getByText('Signed in as bbain').waitFor()
    // The console's home: the clerk's baskets.
    await page.getByRole('heading', { level: 1, name: 'My baskets' }).waitFor()
    expect(new URL(page.url()).hash).toBe('')
    // The session works like a password's: a reload keeps it.
    await page.reload()
    await page.getByText('Signed in as bbain').waitFor()
    await page.close()
  })

  it("shows the provider's refusal on the sign-in page when its sign-in cannot be completed", async () => {
    const page = await browser.context.newPage()
    await page.goto(`${server.baseUrl}/rest/authenticate/oidc/callback?code=forged&state=forged`)
    await expect.poll(() => page.getByRole('alert').textContent()).toBe('Sign-in through the identity provider failed')
    expect(new URL(page.url()).hash).toBe('')
    await page.close()
  })
})

import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestServer, type TestServer } from '../../../testing/src/index.js'

let s: TestServer
let root: string
let langDir: string
let imagesDir: string

const payloadOf = (token: string) => JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8'))

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'web-client-files-'))
  langDir = join(root, 'lang')
  imagesDir = join(root, 'img')
  mkdirSync(langDir)
  mkdirSync(imagesDir)
  writeFileSync(join(langDir, 'lang-fr.json'), JSON.stringify({ id: 'Identifiant', LOGIN: 'Connexion' }))
  writeFileSync(join(langDir, 'lang-en.json'), '{ not json')
  writeFileSync(join(root, 'secret.json'), JSON.stringify({ secret: 'outside the folder' }))
  symlinkSync(join(root, 'secret.json'), join(langDir, 'lang-nl.json'))
  writeFileSync(join(imagesDir, 'logo.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47]))
  symlinkSync(join(root, 'secret.json'), join(imagesDir, 'logo_only.svg'))
  s = await startTestServer({ http: { webClient: { languagesDir: langDir, imagesDir } } })
})
afterAll(async () => {
  await s?.close()
  if (root) rmSync(root, { recursive: true, force: true })
})

describe('GET /rest/authenticationInformations', () => {
  it("answers anyone, in 20.10's shape, with nothing of any user", async () => {
    const r = await s.call('GET', '/rest/authenticationInformations', { auth: null })
    expect(r.status).toBe(200)
    expect(r.json).toEqual({
      instanceId: expect.stringMatching(/^[0-9a-f]{32}$/),
      applicationName: 'Mailroom',
      // The demo's message, kept as the sample installation has it: its formatting is in the safe subset.
      loginMessage: expect.stringContaining('<strong>Découvrez votre application via</strong>'),
      changeKey: false,
      authMode: 'standard',
      authUri: null,
      lang: 'fr',
    })
    // The same installation, the same id: the client keys its storage by it.
    expect((await s.call('GET', '/rest/authenticationInformations', { auth: null })).json.instanceId).toBe(
      r.json.instanceId,
    )
  })

  it('returns the sign-in message as safe HTML: formatting kept, script and handlers gone', async () => {
    const db = s.mailroom.db
    const demo = await db
      .selectFrom('parameters')
      .select(['id', 'description', 'param_value_string'])
      .where('id', '=', 'loginpage_message')
      .executeTakeFirst()
    await db.deleteFrom('parameters').where('id', '=', 'loginpage_message').execute()
    await db
      .insertInto('parameters')
      .values({
        id: 'loginpage_message',
        param_value_string:
          '<h3><span style="color:#24b0ed"><strong>Bienvenue</strong></span> <a href="https://docs.example.org/" target="_blank">le guide</a></h3>' +
          '<script>alert(1)</script><img src=x onerror=alert(2)><a href="javascript:alert(3)" onclick="alert(4)">x</a><p style="background:url(//evil)">y</p>&lt;b&gt;',
      })
      .execute()
    try {
      const r = await s.call('GET', '/rest/authenticationInformations', { auth: null })
      expect(r.json.loginMessage).toBe(
        '<h3><span style="color:#24b0ed"><strong>Bienvenue</strong></span> <a href="https://docs.example.org/" target="_blank" rel="noopener noreferrer">le guide</a></h3>' +
          '<a>x</a><p>y</p>&#60;b&#62;',
      )
    } finally {
      await db.deleteFrom('parameters').where('id', '=', 'loginpage_message').execute()
      if (demo) await db.insertInto('parameters').values(demo).execute()
    }
  })
})

describe('GET /rest/languages/{lang}', () => {
  it("answers anyone with the operator's file as 20.10 does: { lang: labels }", async () => {
    const r = await s.call('GET', '/rest/languages/fr', { auth: null })
    expect([r.status, r.json]).toEqual([200, { lang: { id: 'Identifiant', LOGIN: 'Connexion' } }])
  })

  it('answers { lang: [] } for a known language without a readable file, or one reached through a link out', async () => {
    for (const code of ['en', 'nl']) {
      const r = await s.call('GET', `/rest/languages/${code}`, { auth: null })
      expect([r.status, r.json], code).toEqual([200, { lang: [] }])
      expect(r.text).not.toContain('outside the folder')
    }
  })

  it('takes only the known language codes', async () => {
    for (const code of [
      'de',
      'FR',
      '..%2Fsecret',
      '..%2F..%2Fetc%2Fpasswd',
      'fr.json',
      'f%00r',
      `${'x'.repeat(5000)}`,
      '%C0%AE',
    ]) {
      const r = await s.call('GET', `/rest/languages/${code}`, { auth: null })
      expect(r.status, code).toBe(400)
      expect(r.json, code).toEqual({ errors: expect.any(String) })
      expect(r.text).not.toContain('outside the folder')
    }
    expect((await s.call('GET', '/rest/languages/de', { auth: null })).json).toEqual({
      errors: 'Language is not one of fr, en, nl',
    })
  })
})

describe('GET /rest/images', () => {
  it("answers anyone with the operator's image, else Mailroom's own; never a file reached through a link out", async () => {
    const logo = await s.call('GET', '/rest/images?image=logo', { auth: null })
    expect([logo.status, logo.headers.get('content-type'), [...logo.bytes]]).toEqual([
      200,
      'image/png',
      [0x89, 0x50, 0x4e, 0x47],
    ])
    expect(logo.headers.get('content-disposition')).toBe('inline; filename=maarch.png')
    for (const image of ['loginPage', 'onlyLogo']) {
      const r = await s.call('GET', `/rest/images?image=${image}`, { auth: null })
      expect(r.status).toBe(200)
      expect(r.headers.get('content-type')).toBe('image/svg+xml')
      expect(r.text).toMatch(/^<svg /)
      expect(r.text).not.toMatch(/<script|outside the folder/)
      expect(r.headers.get('content-security-policy')).toContain("default-src 'none'")
    }
  })

  it("answers 20.10's 404 for any other image", async () => {
    for (const query of [
      '',
      '?image=',
      '?image=bodylogin',
      '?image=../secret.json',
      '?image[]=logo',
      '?image=logo&image=logo',
    ]) {
      const r = await s.call('GET', `/rest/images${query}`, { auth: null })
      expect([r.status, r.json], query).toEqual([404, { errors: 'QueryParams image is empty or not valid' }])
    }
  })
})

describe('PUT /rest/versionsUpdateSQL and GET /rest/passwordRules', () => {
  it('answer anyone: nothing to update, the policy of new passwords', async () => {
    for (const options of [{ body: {} }, {}]) {
      const r = await s.call('PUT', '/rest/versionsUpdateSQL', { auth: null, ...options })
      expect([r.status, r.text]).toEqual([204, ''])
    }
    const rules = await s.call('GET', '/rest/passwordRules', { auth: null })
    expect([rules.status, rules.json]).toEqual([
      200,
      { rules: [{ id: 1, label: 'minLength', value: 12, enabled: true }] },
    ])
  })

  it('refuses a hostile body with a clear 400', async () => {
    for (const rawBody of ['{', `${'['.repeat(10_000)}`, '{"a":"\\u0000"}']) {
      const r = await s.call('PUT', '/rest/versionsUpdateSQL', {
        auth: null,
        rawBody,
        headers: { 'content-type': 'application/json' },
      })
      expect(r.status).toBe(400)
      expect(r.json).toEqual({ errors: expect.any(String) })
    }
  })
})

describe('GET /rest/externalConnectionsEnabled and GET /rest/pinnedFolders', () => {
  it("answer a signed-in user in 20.10's shapes", async () => {
    expect((await s.call('GET', '/rest/externalConnectionsEnabled')).json).toEqual({ connection: [] })
    expect((await s.call('GET', '/rest/pinnedFolders')).json).toEqual({ folders: [] })
  })

  it('answer nobody else', async () => {
    for (const path of ['/rest/externalConnectionsEnabled', '/rest/pinnedFolders']) {
      for (const auth of [null, { bearer: 'null' }, 'bbain:wrong']) {
        const r = await s.call('GET', path, { auth })
        expect([r.status, r.json]).toEqual([401, { errors: 'Authentication Failed' }])
      }
    }
  })
})

describe("tokens as 20.10's web client reads them", () => {
  it("name the user in the payload's `user` (id, names, status, login), on sign-in and on refresh", async () => {
    const signIn = await s.call('POST', '/rest/authenticate', {
      auth: null,
      body: { login: 'bbain', password: 'maarch' },
    })
    expect(signIn.status).toBe(204)
    const user = { id: 3, firstname: 'Barbara', lastname: 'BAIN', status: 'OK', login: 'bbain' }
    expect(payloadOf(signIn.headers.get('token')!).user).toEqual(user)
    expect(payloadOf(signIn.headers.get('refresh-token')!).user).toEqual({ id: 3 })
    const refresh = encodeURIComponent(signIn.headers.get('refresh-token')!)
    const refreshed = await s.call('GET', `/rest/authenticate/token?refreshToken=${refresh}`, { auth: null })
    expect(payloadOf(refreshed.json.token).user).toEqual(user)
    // The payload is for display: the token still authenticates by its signature and its user's row.
    expect((await s.call('GET', '/rest/pinnedFolders', { auth: { bearer: refreshed.json.token } })).status).toBe(200)
  })
})

describe("a 401 never opens a browser's password box over a page", () => {
  const challengeOf = async (headers: Record<string, string>, auth: string | { bearer: string } | null = null) =>
    (await s.call('GET', '/rest/pinnedFolders', { auth, headers })).headers.get('www-authenticate')

  it("challenges a page's requests with Bearer: Sec-Fetch-Dest other than document, X-Requested-With", async () => {
    expect(await challengeOf({ 'sec-fetch-dest': 'empty', 'sec-fetch-mode': 'cors' })).toBe('Bearer realm="mailroom"')
    expect(await challengeOf({ 'sec-fetch-dest': 'image' })).toBe('Bearer realm="mailroom"')
    expect(await challengeOf({ 'x-requested-with': 'XMLHttpRequest' })).toBe('Bearer realm="mailroom"')
    expect(await challengeOf({ 'sec-fetch-dest': 'empty' }, 'bbain:wrong')).toBe('Bearer realm="mailroom"')
    expect(await challengeOf({}, { bearer: 'null' })).toBe('Bearer realm="mailroom", error="invalid_token"')
  })

  it('keeps Basic for programs (curl -u, Node fetch, capture tools) and an address typed in the bar', async () => {
    const basic = 'Basic realm="mailroom", charset="UTF-8"'
    expect(await challengeOf({})).toBe(basic)
    expect(await challengeOf({ 'sec-fetch-mode': 'cors' })).toBe(basic)
    expect(await challengeOf({ 'sec-fetch-dest': 'document', 'sec-fetch-mode': 'navigate' })).toBe(basic)
  })
})

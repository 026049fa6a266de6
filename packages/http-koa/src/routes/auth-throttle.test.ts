import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestServer, type TestServer } from '../../../testing/src/index.js'
import { capturedLog } from '../../test/captured-log.js'

const FAILED = { errors: 'Authentication Failed' }
const THROTTLED = { errors: 'Too many failed authentications from this address, try again later' }

let s: TestServer
let locking: TestServer
const log = capturedLog()
const lockLog = capturedLog()
beforeAll(async () => {
  // X-Forwarded-For stands for the client addresses (trusted, as behind a proxy).
  s = await startTestServer({
    mailroom: {
      throttle: {
        maxFailuresPerLoginAndAddress: 3,
        maxFailuresPerAddress: 6,
        freeFailuresPerLogin: 2,
        firstDelayMs: 5,
        maxDelayMs: 20,
      },
    },
    http: { trustProxy: ['loopback'], logger: log.logger },
  })
  locking = await startTestServer({
    mailroom: { throttle: { lockAttempts: 3, lockSeconds: 60 } },
    http: { trustProxy: ['loopback'], logger: lockLog.logger },
  })
})
afterAll(async () => {
  await s?.close()
  await locking?.close()
})

const get = (server: TestServer, auth: string, address: string) =>
  server.call('GET', '/rest/entities/PJS', { auth, headers: { 'x-forwarded-for': address } })

describe('throttle: per login and address, per address, progressive delay (account lock off)', () => {
  it('refuses the guessing address only, for that login only, with Retry-After', async () => {
    for (let i = 0; i < 3; i++) expect((await get(s, 'ddur:bad', '10.0.0.1')).json).toEqual(FAILED)
    // Even the right password is refused to the address that guessed...
    const refused = await get(s, 'ddur:maarch', '10.0.0.1')
    expect([refused.status, refused.json]).toEqual([429, THROTTLED])
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0)
    expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(300)
    // ...never to another address, and the other users behind the guessing address keep working.
    expect((await get(s, 'ddur:maarch', '10.0.0.2')).status).toBe(200)
    expect((await get(s, 'ppetit:maarch', '10.0.0.1')).status).toBe(200)
  })

  it('bounds the failures of an address over every login, but not for logins that succeeded from it', async () => {
    expect((await get(s, 'bbain:maarch', '10.0.1.1')).status).toBe(200)
    const logins = ['nobody1', 'nobody2', 'nobody3', 'nobody4', 'nobody5', 'nobody6']
    for (const login of logins) expect((await get(s, `${login}:guess`, '10.0.1.1')).json).toEqual(FAILED)
    const spraying = await get(s, 'nobody7:guess', '10.0.1.1')
    expect([spraying.status, spraying.json]).toEqual([429, THROTTLED])
    expect(Number(spraying.headers.get('retry-after'))).toBeGreaterThan(0)
    // bbain logged in from there before: the address limit does not hold it back (a new password check,
    // not the cached one, since this is another password).
    expect((await get(s, 'bbain:wrong-once', '10.0.1.1')).json).toEqual(FAILED)
    // The same login from elsewhere is untouched.
    expect((await get(s, 'nobody7:guess', '10.0.1.2')).json).toEqual(FAILED)
  })

  it('slows, never refuses, a login guessed from many addresses: the right password still gets in', async () => {
    for (let i = 0; i < 6; i++) expect((await get(s, `bblier:guess${i}`, `10.0.2.${i}`)).json).toEqual(FAILED)
    expect((await get(s, 'bblier:maarch', '10.0.2.99')).status).toBe(200)
    expect(
      (
        await s.call('POST', '/rest/authenticate', {
          auth: null,
          body: { login: 'bblier', password: 'maarch' },
          headers: { 'x-forwarded-for': '10.0.2.98' },
        })
      ).status,
    ).toBe(204)
  })

  it('answers a flood of wrong passwords from one address with few password checks, and serves the others', async () => {
    const flood = await Promise.all(Array.from({ length: 120 }, (_, i) => get(s, `superadmin:wrong${i}`, '10.0.3.1')))
    const statuses = flood.map((r) => r.status)
    expect(statuses.every((status) => status === 401 || status === 429)).toBe(true)
    // At most the login-and-address limit plus what was already being checked reached the password hash.
    expect(statuses.filter((status) => status === 401).length).toBeLessThanOrEqual(3 + 2)
    expect(statuses.filter((status) => status === 429).length).toBeGreaterThanOrEqual(115)
    expect((await get(s, 'superadmin:superadmin', '10.0.3.2')).status).toBe(200)
    expect((await get(s, 'cchaplin:maarch', '10.0.3.1')).status).toBe(200)
  })

  it("counts a login longer than the counters' key column (stored as its digest) like any other", async () => {
    const long = `${'x'.repeat(300)}:guess`
    for (let i = 0; i < 3; i++) expect((await get(s, long, '10.0.5.1')).json).toEqual(FAILED)
    expect((await get(s, long, '10.0.5.1')).json).toEqual(THROTTLED)
  })

  it('checks the same credentials sent at once from one address once, and answers them all alike', async () => {
    const right = await Promise.all(Array.from({ length: 20 }, () => get(s, 'bbain:maarch', '10.0.4.1')))
    expect(right.map((r) => r.status)).toEqual(Array(20).fill(200))
    const wrong = await Promise.all(Array.from({ length: 20 }, () => get(s, 'ppetit:same-wrong', '10.0.4.1')))
    expect(wrong.map((r) => r.status).filter((status) => status === 401).length).toBeGreaterThanOrEqual(3)
    expect(wrong.every((r) => r.status === 401 || r.status === 429)).toBe(true)
  })

  it('logs every failure and refusal with login, address and reason, never the password', async () => {
    const refusals = log.lines.filter((l) => l.msg === 'authentication refused')
    const facts = refusals.map((l) => l.authentication)
    expect(facts).toContainEqual({ login: 'ddur', address: '10.0.0.1', reason: 'wrong password' })
    expect(facts).toContainEqual({
      login: 'ddur',
      address: '10.0.0.1',
      reason: 'too many failures for this login from this address',
    })
    expect(facts).toContainEqual({ login: 'nobody1', address: '10.0.1.1', reason: 'unknown login' })
    expect(facts).toContainEqual({
      login: 'nobody7',
      address: '10.0.1.1',
      reason: 'too many failures from this address',
    })
    const text = JSON.stringify(log.lines)
    for (const password of ['bad', 'guess0', 'wrong-once', 'maarch']) expect(text).not.toContain(`"${password}"`)
    expect(text).not.toMatch(/guess\d|wrong-once|wrong\d|same-wrong/)
  })
})

describe('throttle: the reference account lock, when turned on', () => {
  it('locks the login for everybody after N failures, whatever the password, and logs it', async () => {
    expect((await get(locking, 'bbain:maarch', '10.1.0.9')).status).toBe(200)
    for (let i = 0; i < 3; i++) expect((await get(locking, 'ddur:bad', `10.1.0.${i}`)).json).toEqual(FAILED)
    for (const address of ['10.1.0.1', '10.1.0.50']) {
      const r = await get(locking, 'ddur:maarch', address)
      expect([r.status, r.json]).toEqual([401, { errors: 'Account Locked' }])
    }
    expect((await get(locking, 'bbain:maarch', '10.1.0.9')).status).toBe(200)
    const locked = lockLog.lines.filter((l) => l.msg === 'authentication failed: account locked')
    expect(locked).toHaveLength(1)
    expect(locked[0]?.authentication).toMatchObject({ login: 'ddur', address: '10.1.0.2', reason: 'wrong password' })
    expect(lockLog.lines.map((l) => l.authentication)).toContainEqual({
      login: 'ddur',
      address: '10.1.0.50',
      reason: 'account locked',
    })
  })

  it('refuses even credentials this server verified a moment ago while the lock lasts', async () => {
    expect((await get(locking, 'ppetit:maarch', '10.1.1.1')).status).toBe(200)
    for (let i = 0; i < 3; i++) await get(locking, 'ppetit:bad', '10.1.1.2')
    expect((await get(locking, 'ppetit:maarch', '10.1.1.1')).json).toEqual({ errors: 'Account Locked' })
  })
})

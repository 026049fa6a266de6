import { describe, expect, it } from 'vitest'
import type { Actor } from '../actors/actor.js'
import { type AuthDependencies, createAuthService } from './auth-service.js'
import type { AuthThrottle, PasswordHasher, ThrottleCounter, UserCredentials, UserRepository } from './ports.js'
import type { ThrottlePolicy } from './throttle-policy.js'

/**
 * A hasher with two schemes: `v2:` is current, anything else (`v1:`, `$2y$…` as imported from Maarch) is
 * older and verifies through its own rule. Counts the hashes it computes.
 */
function fakeHasher() {
  const hasher = {
    hashed: 0,
    async hash(password: string) {
      hasher.hashed++
      return `v2:${password}`
    },
    async verify(password: string, stored: string) {
      if (stored.startsWith('$2y$')) return stored === `$2y$10$${password}`
      return stored === `v2:${password}` || stored === `v1:${password}`
    },
    needsRehash: (stored: string) => !stored.startsWith('v2:'),
  } satisfies PasswordHasher & { hashed: number }
  return hasher
}

function fakeUsers(passwordHash: string) {
  const row: UserCredentials = {
    id: 7,
    login: 'bbain',
    passwordHash,
    status: 'OK',
    mode: 'standard',
    lockedUntil: null,
    refreshTokenIds: [],
    serviceTokenId: null,
  }
  const actor = { id: 7, login: 'bbain' } as Actor
  const users: UserRepository & { row: UserCredentials } = {
    row,
    async findCredentialsByLogin(login) {
      return login.toLowerCase() === users.row.login ? { ...users.row } : null
    },
    async findCredentialsById(id) {
      return id === users.row.id ? { ...users.row } : null
    },
    async loadActor(id) {
      return id === actor.id ? actor : null
    },
    async addRefreshToken() {},
    async setServiceToken() {},
    async replacePasswordHash(userId, previousHash, newHash) {
      if (userId !== users.row.id || users.row.passwordHash !== previousHash) return false
      users.row = { ...users.row, passwordHash: newHash }
      return true
    },
  }
  return users
}

function service(users: UserRepository, hasher: PasswordHasher, more: Partial<AuthDependencies> = {}) {
  return createAuthService({
    users,
    hasher,
    tokens: { sign: () => 'token', verify: () => null },
    clock: { now: () => new Date('2026-11-24T12:00:00Z') },
    ids: { newId: () => 'id' },
    credentialDigest: (login, password) => `${login}\0${password}`,
    // No in-memory shortcut: every call checks the stored hash.
    settings: { verifiedCredentialSeconds: 0, actorCacheSeconds: 0 },
    ...more,
  })
}

describe('password hash upgrade at login (needsRehash)', () => {
  it.each([
    ['an older cost', 'v1:maarch'],
    ['an imported scheme', '$2y$10$maarch'],
  ])('replaces a hash of %s with a current one at the first successful login, once', async (_name, stored) => {
    const users = fakeUsers(stored)
    const hasher = fakeHasher()
    const auth = service(users, hasher)
    expect((await auth.authenticatePassword('bbain', 'maarch')).id).toBe(7)
    expect(users.row.passwordHash).toBe('v2:maarch')
    const hashedAfterFirst = hasher.hashed
    expect((await auth.authenticatePassword('bbain', 'maarch')).id).toBe(7)
    expect(hasher.hashed).toBe(hashedAfterFirst)
  })

  it('keeps the stored hash on a wrong password', async () => {
    const users = fakeUsers('v1:maarch')
    await expect(service(users, fakeHasher()).authenticatePassword('bbain', 'wrong')).rejects.toMatchObject({
      code: 'AUTHENTICATION_FAILED',
    })
    expect(users.row.passwordHash).toBe('v1:maarch')
  })

  it('does not overwrite a password changed between the check and the upgrade', async () => {
    const users = fakeUsers('v1:maarch')
    const replace = users.replacePasswordHash.bind(users)
    users.replacePasswordHash = async (id, previous, next) => {
      users.row = { ...users.row, passwordHash: 'v2:changed-meanwhile' }
      return replace(id, previous, next)
    }
    expect((await service(users, fakeHasher()).authenticatePassword('bbain', 'maarch')).id).toBe(7)
    expect(users.row.passwordHash).toBe('v2:changed-meanwhile')
  })

  it('upgrades through login() too (POST /authenticate)', async () => {
    const users = fakeUsers('v1:maarch')
    await service(users, fakeHasher()).login('bbain', 'maarch')
    expect(users.row.passwordHash).toBe('v2:maarch')
  })
})

/** The throttle's counters in memory, as the database keeps them. */
function memoryThrottle(): AuthThrottle & { reads: number } {
  const rows = new Map<string, ThrottleCounter>()
  return {
    reads: 0,
    async read(subjects) {
      this.reads++
      return new Map(subjects.flatMap((s) => (rows.has(s) ? [[s, rows.get(s)!] as const] : [])))
    },
    async recordFailure(subjects, now) {
      const counts = new Map<string, number>()
      for (const { subject, windowSeconds } of subjects) {
        const row = rows.get(subject)
        const stale = !row || row.updatedAt.getTime() < now.getTime() - windowSeconds * 1000
        const failures = stale ? 1 : row.failures + 1
        rows.set(subject, { failures, updatedAt: now, lockedUntil: row?.lockedUntil ?? null })
        counts.set(subject, failures)
      }
      return counts
    },
    async clear(subjects) {
      for (const s of subjects) rows.delete(s)
    },
    async remember(subject, now) {
      rows.set(subject, { failures: 0, updatedAt: now, lockedUntil: null })
    },
    async lock(subject, until) {
      rows.set(subject, { failures: 0, updatedAt: rows.get(subject)?.updatedAt ?? until, lockedUntil: until })
    },
  }
}

describe('throttle through the auth service', () => {
  function throttled(hasher: PasswordHasher = fakeHasher()) {
    const waits: number[] = []
    const throttle = memoryThrottle()
    const auth = service(fakeUsers('v2:maarch'), hasher, {
      throttle,
      throttlePolicy: { freeFailuresPerLogin: 3, firstDelayMs: 100, maxDelayMs: 400 },
      wait: async (ms) => {
        waits.push(ms)
      },
    })
    return { auth, waits, throttle }
  }

  it('answers the rest of a flood on a refused login without reading the counters again', async () => {
    const { auth, throttle } = throttled()
    for (let i = 0; i < 5; i++)
      await expect(auth.authenticatePassword('bbain', `guess${i}`, '10.0.0.1')).rejects.toMatchObject({
        code: 'AUTHENTICATION_FAILED',
      })
    const readsBefore = throttle.reads
    for (let i = 0; i < 20; i++) {
      await expect(auth.authenticatePassword('bbain', `more${i}`, '10.0.0.1')).rejects.toMatchObject({
        code: 'ADDRESS_THROTTLED',
        details: { retryAfterSeconds: 300 },
      })
    }
    expect(throttle.reads - readsBefore).toBe(1)
    expect((await auth.authenticatePassword('bbain', 'maarch', '10.0.0.2')).id).toBe(7)
  })

  it('waits the progressive delay before checking a guessed login from a new address, not from a known one', async () => {
    const { auth, waits } = throttled()
    expect((await auth.authenticatePassword('bbain', 'maarch', '10.0.0.1')).id).toBe(7)
    for (let i = 0; i < 6; i++)
      await expect(auth.authenticatePassword('bbain', 'guess', `10.0.1.${i}`)).rejects.toMatchObject({
        code: 'AUTHENTICATION_FAILED',
      })
    expect(waits).toEqual([100, 200, 400])
    expect((await auth.authenticatePassword('bbain', 'maarch', '10.0.2.1')).id).toBe(7)
    expect(waits).toEqual([100, 200, 400, 400])
    expect((await auth.authenticatePassword('bbain', 'maarch', '10.0.0.1')).id).toBe(7)
    expect(waits).toHaveLength(4)
  })

  it('says who, from where and why in the refusal, never the password', async () => {
    const { auth } = throttled()
    const refusal = await auth.authenticatePassword('BBAIN', 's3cret-guess', '10.0.0.9').catch((e: unknown) => e)
    expect(refusal).toMatchObject({
      code: 'AUTHENTICATION_FAILED',
      details: { authentication: { login: 'BBAIN', address: '10.0.0.9', reason: 'wrong password' } },
    })
    expect(JSON.stringify((refusal as { details: unknown }).details)).not.toContain('s3cret')
  })

  it('runs at most two checks of one login from one address at once; the rest are refused before any hash', async () => {
    let verifying = 0
    let most = 0
    const base = fakeHasher()
    const slow: PasswordHasher = {
      ...base,
      async verify(password, stored) {
        verifying++
        most = Math.max(most, verifying)
        await new Promise((resolve) => setTimeout(resolve, 5))
        verifying--
        return base.verify(password, stored)
      },
    }
    const { auth } = throttled(slow)
    const codes = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        auth.authenticatePassword('bbain', `wrong${i}`, '10.9.9.9').catch((e: { code: string }) => e.code),
      ),
    )
    expect(most).toBeLessThanOrEqual(2)
    expect(codes.filter((c) => c === 'AUTHENTICATION_FAILED').length).toBeLessThanOrEqual(2)
    expect(codes.filter((c) => c === 'PASSWORD_CHECKS_BUSY').length).toBeGreaterThanOrEqual(48)
    expect((await auth.authenticatePassword('bbain', 'maarch', '10.9.9.8')).id).toBe(7)
  })

  it('checks the same credentials from the same address once when they arrive together', async () => {
    let verified = 0
    const base = fakeHasher()
    const counting: PasswordHasher = {
      ...base,
      async verify(password, stored) {
        verified++
        await new Promise((resolve) => setTimeout(resolve, 5))
        return base.verify(password, stored)
      },
    }
    const { auth } = throttled(counting)
    const right = await Promise.all(
      Array.from({ length: 20 }, () => auth.authenticatePassword('bbain', 'maarch', '10.0.0.1')),
    )
    expect(right.map((a) => a.id)).toEqual(Array(20).fill(7))
    expect(verified).toBe(1)
    const wrong = await Promise.all(
      Array.from({ length: 20 }, () =>
        auth.authenticatePassword('bbain', 'same', '10.0.0.1').catch((e: { code: string }) => e.code),
      ),
    )
    expect(wrong).toEqual(Array(20).fill('AUTHENTICATION_FAILED'))
    expect(verified).toBe(2)
  })
})

describe('authentication observer (metrics)', () => {
  function observedService(throttlePolicy: Partial<ThrottlePolicy> = {}) {
    const seen: string[] = []
    const auth = service(fakeUsers('v2:maarch'), fakeHasher(), {
      throttle: memoryThrottle(),
      throttlePolicy,
      wait: async () => {},
      observer: {
        authenticationFailed: (method) => seen.push(`failed:${method}`),
        authenticationThrottled: (scope) => seen.push(`throttled:${scope}`),
      },
    })
    return { auth, seen }
  }

  it('reports each refusal once, by method, and nothing for a success', async () => {
    const { auth, seen } = observedService()
    await auth.authenticatePassword('bbain', 'maarch', '10.0.0.1')
    await expect(auth.authenticatePassword('bbain', 'wrong', '10.0.0.1')).rejects.toMatchObject({
      code: 'AUTHENTICATION_FAILED',
    })
    await expect(auth.login('bbain', 'wrong', '10.0.0.1')).rejects.toMatchObject({ code: 'AUTHENTICATION_FAILED' })
    await expect(auth.authenticateToken('forged')).rejects.toMatchObject({ code: 'AUTHENTICATION_FAILED' })
    await expect(auth.refresh('forged')).rejects.toMatchObject({ code: 'AUTHENTICATION_FAILED' })
    expect(seen).toEqual(['failed:password', 'failed:password', 'failed:token', 'failed:refresh'])
  })

  it.each([
    [{ lockAttempts: 2 }, 'ACCOUNT_LOCKED', 'throttled:account'],
    [{ maxFailuresPerLoginAndAddress: 2 }, 'ADDRESS_THROTTLED', 'throttled:address'],
  ] as const)('reports a lock-out (%o) as throttling, not as a failure', async (policy, code, expected) => {
    const { auth, seen } = observedService(policy)
    for (const guess of ['one', 'two'])
      await expect(auth.authenticatePassword('bbain', guess, '10.0.0.9')).rejects.toMatchObject({
        code: 'AUTHENTICATION_FAILED',
      })
    await expect(auth.authenticatePassword('bbain', 'maarch', '10.0.0.9')).rejects.toMatchObject({ code })
    expect(seen).toEqual(['failed:password', 'failed:password', expected])
  })
})

describe('time comes from the injected clock only', () => {
  /** A clock that moves only when told. */
  function manualClock() {
    let nowMs = Date.parse('2026-11-24T12:00:00Z')
    return {
      now: () => new Date(nowMs),
      advanceSeconds(seconds: number) {
        nowMs += seconds * 1000
      },
    }
  }

  it('trusts a checked password for verifiedCredentialSeconds of the clock, then checks the hash again', async () => {
    const clock = manualClock()
    let verifications = 0
    const base = fakeHasher()
    const counting: PasswordHasher = {
      ...base,
      async verify(password, stored) {
        verifications++
        return base.verify(password, stored)
      },
    }
    const auth = service(fakeUsers('v2:maarch'), counting, {
      clock,
      settings: { verifiedCredentialSeconds: 60, actorCacheSeconds: 0 },
    })
    await auth.authenticatePassword('bbain', 'maarch')
    clock.advanceSeconds(59)
    expect((await auth.authenticatePassword('bbain', 'maarch')).id).toBe(7)
    expect(verifications).toBe(1)
    clock.advanceSeconds(2)
    expect((await auth.authenticatePassword('bbain', 'maarch')).id).toBe(7)
    expect(verifications).toBe(2)
  })

  it('serves a loaded user for actorCacheSeconds of the clock: a disabled user is refused once they have passed', async () => {
    const clock = manualClock()
    const users = fakeUsers('v2:maarch')
    const auth = service(users, fakeHasher(), {
      clock,
      tokens: { sign: () => 'token', verify: () => ({ kind: 'access', userId: 7, tokenId: 'id' }) },
      settings: { verifiedCredentialSeconds: 0, actorCacheSeconds: 5 },
    })
    expect((await auth.authenticateToken('token')).id).toBe(7)
    users.row = { ...users.row, status: 'DEL' }
    clock.advanceSeconds(4)
    expect((await auth.authenticateToken('token')).id).toBe(7)
    clock.advanceSeconds(2)
    await expect(auth.authenticateToken('token')).rejects.toMatchObject({ code: 'AUTHENTICATION_FAILED' })
  })

  it('refuses a login to an address until the throttle window has passed on the clock', async () => {
    const clock = manualClock()
    const auth = service(fakeUsers('v2:maarch'), fakeHasher(), { clock, throttle: memoryThrottle() })
    for (let i = 0; i < 5; i++)
      await expect(auth.authenticatePassword('bbain', `guess${i}`, '10.0.0.1')).rejects.toMatchObject({
        code: 'AUTHENTICATION_FAILED',
      })
    clock.advanceSeconds(299)
    await expect(auth.authenticatePassword('bbain', 'maarch', '10.0.0.1')).rejects.toMatchObject({
      code: 'ADDRESS_THROTTLED',
      details: { retryAfterSeconds: 1 },
    })
    clock.advanceSeconds(2)
    expect((await auth.authenticatePassword('bbain', 'maarch', '10.0.0.1')).id).toBe(7)
  })
})

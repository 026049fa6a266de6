import { describe, expect, it } from 'vitest'
import type { Actor } from '../actors/actor.js'
import { createAuthService } from './auth-service.js'
import type { PasswordHasher, UserCredentials, UserRepository } from './ports.js'

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
  const row: UserCredentials = { id: 7, login: 'bbain', passwordHash, status: 'OK', mode: 'standard', lockedUntil: null, refreshTokenIds: [], serviceTokenId: null }
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

function service(users: UserRepository, hasher: PasswordHasher) {
  return createAuthService({
    users,
    hasher,
    tokens: { sign: () => 'token', verify: () => null },
    clock: { now: () => new Date('2026-11-24T12:00:00Z') },
    ids: { newId: () => 'id' },
    credentialDigest: (login, password) => `${login}\0${password}`,
    // No in-memory shortcut: every call checks the stored hash.
    settings: { verifiedCredentialSeconds: 0, actorCacheSeconds: 0 },
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
    await expect(service(users, fakeHasher()).authenticatePassword('bbain', 'wrong')).rejects.toMatchObject({ code: 'AUTHENTICATION_FAILED' })
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

describe('authentication observer (metrics)', () => {
  function observedService(throttled: string | null) {
    const seen: string[] = []
    const auth = createAuthService({
      users: fakeUsers('v2:maarch'),
      hasher: fakeHasher(),
      tokens: { sign: () => 'token', verify: () => null },
      clock: { now: () => new Date('2026-11-24T12:00:00Z') },
      ids: { newId: () => 'id' },
      credentialDigest: (login, password) => `${login}\0${password}`,
      throttle: {
        lockedUntil: async (subject) => (subject === throttled ? new Date('2026-11-24T12:05:00Z') : null),
        recordFailure: async () => null,
        recordSuccess: async () => {},
      },
      observer: {
        authenticationFailed: (method) => seen.push(`failed:${method}`),
        authenticationThrottled: (scope) => seen.push(`throttled:${scope}`),
      },
    })
    return { auth, seen }
  }

  it('reports each refusal once, by method, and nothing for a success', async () => {
    const { auth, seen } = observedService(null)
    await auth.authenticatePassword('bbain', 'maarch')
    await expect(auth.authenticatePassword('bbain', 'wrong')).rejects.toMatchObject({ code: 'AUTHENTICATION_FAILED' })
    await expect(auth.login('bbain', 'wrong')).rejects.toMatchObject({ code: 'AUTHENTICATION_FAILED' })
    await expect(auth.authenticateToken('forged')).rejects.toMatchObject({ code: 'AUTHENTICATION_FAILED' })
    await expect(auth.refresh('forged')).rejects.toMatchObject({ code: 'AUTHENTICATION_FAILED' })
    expect(seen).toEqual(['failed:password', 'failed:password', 'failed:token', 'failed:refresh'])
  })

  it.each([
    ['login:bbain', 'throttled:account'],
    ['address:10.0.0.9', 'throttled:address'],
  ])('reports a lock-out of %s as throttling, not as a failure', async (subject, expected) => {
    const { auth, seen } = observedService(subject)
    await expect(auth.authenticatePassword('bbain', 'maarch', '10.0.0.9')).rejects.toBeDefined()
    expect(seen).toEqual([expected])
  })
})

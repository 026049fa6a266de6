import { createHmac } from 'node:crypto'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { HmacTokenSigner, signingKeyId } from './hmac-token-signer.js'

const OLD = 'old-secret-0123456789-abcdefghij'
const NEW = 'new-secret-0123456789-abcdefghij'
const NOW = 1_800_000_000
const access = { kind: 'access' as const, userId: 19, tokenId: 'a-1', expiresAt: NOW + 60 }
const service = { kind: 'service' as const, userId: 19, tokenId: 's-1' }

const headerOf = (token: string) => JSON.parse(Buffer.from(token.split('.')[0]!, 'base64url').toString('utf8'))

describe('HmacTokenSigner', () => {
  it('names the signing key in the header (kid), an id that does not contain the secret', () => {
    const token = new HmacTokenSigner(NEW).sign(access)
    expect(headerOf(token)).toEqual({ alg: 'HS256', typ: 'JWT', kid: signingKeyId(NEW) })
    expect(signingKeyId(NEW)).toMatch(/^[A-Za-z0-9_-]{16}$/)
    expect(signingKeyId(NEW)).not.toBe(signingKeyId(OLD))
    expect(token).not.toContain(Buffer.from(NEW).toString('base64url').slice(0, 8))
  })

  it('after a rotation, accepts the tokens of the previous secret and signs new ones with the new secret', () => {
    const before = new HmacTokenSigner(OLD)
    const oldAccess = before.sign(access)
    const oldService = before.sign(service)
    const rotated = new HmacTokenSigner(NEW, [OLD])
    expect(rotated.verify(oldAccess, NOW)).toEqual(access)
    expect(rotated.verify(oldService, NOW)).toEqual(service)
    expect(headerOf(rotated.sign(access)).kid).toBe(signingKeyId(NEW))
    expect(before.verify(rotated.sign(access), NOW)).toBeNull()
  })

  it('refuses the tokens of a secret once it is dropped from the previous ones', () => {
    const oldService = new HmacTokenSigner(OLD).sign(service)
    expect(new HmacTokenSigner(NEW).verify(oldService, NOW)).toBeNull()
  })

  it('accepts tokens issued before keys had ids with any configured key, and nothing forged', () => {
    const unnamed = (secret: string) => {
      const signer = new HmacTokenSigner(secret)
      const payload = signer.sign(service).split('.')[1]
      const header = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })).toString('base64url')
      // Re-sign under the kid-less header, as the previous version of the signer did.
      const mac = createHmac('sha256', secret).update(`${header}.${payload}`).digest('base64url')
      return `${header}.${payload}.${mac}`
    }
    expect(new HmacTokenSigner(NEW, [OLD]).verify(unnamed(OLD), NOW)).toEqual(service)
    expect(new HmacTokenSigner(NEW, [OLD]).verify(unnamed(NEW), NOW)).toEqual(service)
    expect(new HmacTokenSigner(NEW).verify(unnamed(OLD), NOW)).toBeNull()
  })

  it('refuses a kid it does not know, a header naming a key with another algorithm, and expired tokens', () => {
    const signer = new HmacTokenSigner(NEW, [OLD])
    const [, payload, signature] = signer.sign(access).split('.')
    for (const header of [
      { alg: 'HS256', typ: 'JWT', kid: 'unknown' },
      { alg: 'none', typ: 'JWT', kid: signingKeyId(NEW) },
      { alg: 'HS256', kid: signingKeyId(NEW), typ: 'JWT' },
    ]) {
      expect(
        signer.verify(`${Buffer.from(JSON.stringify(header)).toString('base64url')}.${payload}.${signature}`, NOW),
      ).toBeNull()
    }
    expect(signer.verify(signer.sign(access), NOW + 61)).toBeNull()
  })

  it('refuses a short secret, current or previous', () => {
    expect(() => new HmacTokenSigner('short')).toThrow('MAILROOM_SECRET must be at least 16 characters')
    expect(() => new HmacTokenSigner(NEW, ['short'])).toThrow('MAILROOM_SECRET must be at least 16 characters')
  })

  it('returns null, never throws, for any string', () => {
    const signer = new HmacTokenSigner(NEW, [OLD])
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), fc.string({ maxLength: 60 }), (a, b) => {
        expect(signer.verify(`${Buffer.from(a).toString('base64url')}.${b}.${b}`, NOW)).toBeNull()
        expect(signer.verify(a, NOW)).toBeNull()
      }),
    )
  })
})

import { createHmac, timingSafeEqual } from 'node:crypto'
import type { TokenClaims, TokenSigner } from '@mailroom/core'

const HEADER = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })).toString('base64url')

interface Payload {
  sub: number
  typ: TokenClaims['kind']
  jti: string
  exp?: number
}

/**
 * HS256 JWTs signed with the deployment secret. The secret is required: there is no built-in key
 * (the reference's built-in default key is a defect).
 */
export class HmacTokenSigner implements TokenSigner {
  readonly #key: Buffer

  constructor(secret: string) {
    if (!secret || secret.length < 16) throw new Error('MAILROOM_SECRET must be at least 16 characters')
    this.#key = Buffer.from(secret, 'utf8')
  }

  sign(claims: TokenClaims): string {
    const payload: Payload = { sub: claims.userId, typ: claims.kind, jti: claims.tokenId }
    if (claims.expiresAt !== undefined) payload.exp = claims.expiresAt
    const body = `${HEADER}.${Buffer.from(JSON.stringify(payload)).toString('base64url')}`
    return `${body}.${this.#mac(body).toString('base64url')}`
  }

  verify(token: string, nowSeconds: number): TokenClaims | null {
    if (typeof token !== 'string' || token.length > 4096) return null
    const parts = token.split('.')
    if (parts.length !== 3 || parts[0] !== HEADER) return null
    const signature = Buffer.from(parts[2]!, 'base64url')
    const expected = this.#mac(`${parts[0]}.${parts[1]}`)
    if (signature.length !== expected.length || !timingSafeEqual(signature, expected)) return null
    let payload: Payload
    try {
      payload = JSON.parse(Buffer.from(parts[1]!, 'base64url').toString('utf8')) as Payload
    } catch {
      return null
    }
    if (!Number.isInteger(payload.sub) || typeof payload.jti !== 'string') return null
    if (payload.typ !== 'access' && payload.typ !== 'refresh' && payload.typ !== 'service') return null
    if (payload.typ !== 'service' && (typeof payload.exp !== 'number' || payload.exp <= nowSeconds)) return null
    return { kind: payload.typ, userId: payload.sub, tokenId: payload.jti, ...(payload.exp === undefined ? {} : { expiresAt: payload.exp }) }
  }

  #mac(data: string): Buffer {
    return createHmac('sha256', this.#key).update(data).digest()
  }
}

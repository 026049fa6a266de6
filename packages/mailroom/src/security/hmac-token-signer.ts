import { createHash, createHmac, timingSafeEqual } from 'node:crypto'
import type { TokenClaims, TokenSigner, TokenUser } from '@mailroom/core'

/** Header of the tokens issued before keys had ids: still accepted, checked against every key. */
const UNNAMED_KEY_HEADER = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })).toString('base64url')
const MIN_SECRET_LENGTH = 16

interface Payload {
  sub: number
  typ: TokenClaims['kind']
  jti: string
  exp?: number
  /** 20.10's `user` claim, which its web client decodes (`user.id`, the name it shows); never read back. */
  user: { id: number } & Partial<TokenUser>
}

interface SigningKey {
  readonly id: string
  readonly secret: Buffer
  /** The encoded JWT header naming this key. */
  readonly header: string
}

/**
 * The id (`kid`) of a secret: a truncated SHA-256 of it under a label, so it names the key without
 * revealing anything usable about it, and stays the same on every server sharing the secret.
 */
export function signingKeyId(secret: string): string {
  return createHash('sha256').update(`mailroom-signing-key:${secret}`).digest('base64url').slice(0, 16)
}

function signingKey(secret: string): SigningKey {
  if (!secret || secret.length < MIN_SECRET_LENGTH)
    throw new Error(`MAILROOM_SECRET must be at least ${MIN_SECRET_LENGTH} characters`)
  const id = signingKeyId(secret)
  return {
    id,
    secret: Buffer.from(secret, 'utf8'),
    header: Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT', kid: id })).toString('base64url'),
  }
}

/**
 * HS256 JWTs. The current secret signs, and names itself in the `kid` header; previous secrets still
 * verify, so rotating the secret keeps sessions and service tokens valid until they expire or are revoked.
 * A secret is required: there is no built-in key (the reference's built-in default key is a defect).
 */
export class HmacTokenSigner implements TokenSigner {
  readonly #current: SigningKey
  readonly #byId: ReadonlyMap<string, SigningKey>

  constructor(secret: string, previousSecrets: readonly string[] = []) {
    this.#current = signingKey(secret)
    const keys = [this.#current, ...previousSecrets.map(signingKey)]
    this.#byId = new Map(keys.map((key) => [key.id, key]))
  }

  /** The id of the key that signs new tokens. */
  get keyId(): string {
    return this.#current.id
  }

  sign(claims: TokenClaims): string {
    const payload: Payload = {
      sub: claims.userId,
      typ: claims.kind,
      jti: claims.tokenId,
      user: { id: claims.userId, ...claims.user },
    }
    if (claims.expiresAt !== undefined) payload.exp = claims.expiresAt
    const body = `${this.#current.header}.${Buffer.from(JSON.stringify(payload)).toString('base64url')}`
    return `${body}.${mac(this.#current, body).toString('base64url')}`
  }

  verify(token: string, nowSeconds: number): TokenClaims | null {
    if (typeof token !== 'string' || token.length > 4096) return null
    const parts = token.split('.')
    if (parts.length !== 3) return null
    const candidates =
      parts[0] === UNNAMED_KEY_HEADER
        ? [...this.#byId.values()]
        : [this.#keyOfHeader(parts[0]!)].filter((k) => k !== undefined)
    const signature = Buffer.from(parts[2]!, 'base64url')
    if (!candidates.some((key) => sameBytes(signature, mac(key, `${parts[0]}.${parts[1]}`)))) return null
    let payload: Payload
    try {
      payload = JSON.parse(Buffer.from(parts[1]!, 'base64url').toString('utf8')) as Payload
    } catch {
      return null
    }
    if (!Number.isInteger(payload.sub) || typeof payload.jti !== 'string') return null
    if (payload.typ !== 'access' && payload.typ !== 'refresh' && payload.typ !== 'service') return null
    if (payload.typ !== 'service' && (typeof payload.exp !== 'number' || payload.exp <= nowSeconds)) return null
    return {
      kind: payload.typ,
      userId: payload.sub,
      tokenId: payload.jti,
      ...(payload.exp === undefined ? {} : { expiresAt: payload.exp }),
    }
  }

  /** The key a header names, only when the header is exactly the one that key writes (no other algorithm). */
  #keyOfHeader(header: string): SigningKey | undefined {
    if (header.length > 200) return undefined
    try {
      const { kid } = JSON.parse(Buffer.from(header, 'base64url').toString('utf8')) as { kid?: unknown }
      const key = typeof kid === 'string' ? this.#byId.get(kid) : undefined
      return key?.header === header ? key : undefined
    } catch {
      return undefined
    }
  }
}

function mac(key: SigningKey, data: string): Buffer {
  return createHmac('sha256', key.secret).update(data).digest()
}

function sameBytes(a: Buffer, b: Buffer): boolean {
  return a.length === b.length && timingSafeEqual(a, b)
}

import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { Actor, ActorGroup } from '../actors/actor.js'
import { isDomainError } from '../errors/domain-error.js'
import { buildSafeDirectory } from './safe-directory.js'
import {
  parseChainVerificationQuery,
  type SafeChainVerifier,
  type SafeVerification,
  verifySafeChain,
} from './safe-verification.js'

const DIRECTORY = buildSafeDirectory([
  { entityId: 'VILLE', parentEntityId: null, businessId: 'SAFE-1' },
  { entityId: 'PJS', parentEntityId: 'VILLE', businessId: null },
  { entityId: 'FAR', parentEntityId: null, businessId: 'SAFE-2' },
])

const group = (digitalSafe: boolean | undefined): ActorGroup => ({
  id: 1,
  groupId: 'AGENT',
  canIndex: false,
  securityClause: null,
  indexingEntities: [],
  indexingKeywords: [],
  ...(digitalSafe === undefined ? {} : { digitalSafe }),
})
const actor = (options: { mode?: Actor['mode']; digitalSafe?: boolean }): Actor => ({
  id: 9,
  login: 'clerk',
  firstname: null,
  lastname: null,
  email: null,
  mode: options.mode ?? 'standard',
  entities: [{ id: 6, entityId: 'PJS', primary: true }],
  groups: [group(options.digitalSafe)],
})

/** A verifier that records which safes it was asked to walk. */
function fakeVerifier() {
  const walked: string[] = []
  const full: boolean[] = []
  const verifier: SafeChainVerifier = {
    loadSafeDirectory: async () => DIRECTORY,
    async verifySafeChain(safe, options): Promise<SafeVerification> {
      walked.push(safe)
      full.push(options.full)
      return { safe, ok: true, events: 3, files: 0, head: { sequence: 3, hash: 'h' }, pending: 0 }
    },
  }
  return { verifier, walked, full }
}

async function refusal(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  )
  if (!isDomainError(error)) throw new Error(`expected a DomainError, got ${String(error)}`)
  return error.code
}

describe('verifySafeChain', () => {
  it('walks the chain for whoever may read the safe: positioned with the right (or groups from before it), or root', async () => {
    const { verifier, walked } = fakeVerifier()
    await expect(verifySafeChain(verifier, actor({ digitalSafe: true }), 'SAFE-1')).resolves.toMatchObject({
      safe: 'SAFE-1',
      ok: true,
      events: 3,
    })
    await verifySafeChain(verifier, actor({}), 'SAFE-1')
    await verifySafeChain(verifier, actor({ mode: 'root_visible', digitalSafe: false }), 'SAFE-2')
    expect(walked).toEqual(['SAFE-1', 'SAFE-1', 'SAFE-2'])
  })

  it("refuses with the journal read's errors, in its order, before walking anything", async () => {
    const { verifier, walked } = fakeVerifier()
    expect(await refusal(verifySafeChain(verifier, actor({ digitalSafe: false }), 'NOPE'))).toBe(
      'JOURNAL_SAFE_NOT_FOUND',
    )
    expect(await refusal(verifySafeChain(verifier, actor({ digitalSafe: false }), 'SAFE-2'))).toBe(
      'JOURNAL_NOT_POSITIONED',
    )
    expect(await refusal(verifySafeChain(verifier, actor({ digitalSafe: false }), 'SAFE-1'))).toBe(
      'JOURNAL_NOT_ALLOWED',
    )
    expect(walked).toEqual([])
  })
})

describe('the full walk (full=true)', () => {
  it('is for root users; others are refused after the access checks, without a walk', async () => {
    const { verifier, walked, full } = fakeVerifier()
    await verifySafeChain(verifier, actor({ mode: 'root_invisible' }), 'SAFE-1', { full: 'true' })
    await verifySafeChain(verifier, actor({ digitalSafe: true }), 'SAFE-1', { full: 'false' })
    await verifySafeChain(verifier, actor({ digitalSafe: true }), 'SAFE-1')
    expect(full).toEqual([true, false, false])
    expect(await refusal(verifySafeChain(verifier, actor({ digitalSafe: true }), 'SAFE-1', { full: 'true' }))).toBe(
      'JOURNAL_FULL_VERIFICATION_ROOT_ONLY',
    )
    expect(await refusal(verifySafeChain(verifier, actor({ digitalSafe: false }), 'SAFE-1', { full: 'true' }))).toBe(
      'JOURNAL_NOT_ALLOWED',
    )
    expect(walked).toHaveLength(3)
  })

  it('reads full as true or false (empty: false), refusing any other value or a repeated one', () => {
    expect(parseChainVerificationQuery({})).toEqual({ full: false })
    expect(parseChainVerificationQuery({ full: '' })).toEqual({ full: false })
    expect(parseChainVerificationQuery({ full: ['true'], other: 'x' })).toEqual({ full: true })
    const code = (raw: Parameters<typeof parseChainVerificationQuery>[0]) => {
      try {
        parseChainVerificationQuery(raw)
        return null
      } catch (error) {
        return isDomainError(error) ? error.code : String(error)
      }
    }
    expect(code({ full: ['true', 'true'] })).toBe('JOURNAL_REPEATED_PARAMETER')
    fc.assert(
      fc.property(fc.string(), (text) => {
        const expected = text === 'true' ? null : text === 'false' || text === '' ? null : 'JOURNAL_INVALID_FULL'
        expect(code({ full: text })).toBe(expected)
      }),
    )
  })
})

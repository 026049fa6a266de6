import { createHash } from 'node:crypto'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  buildConsultationEvent,
  buildDepositEvent,
  buildIntegrityCheckEvent,
  buildJournalReadEvent,
  buildNewResourceEvent,
  chainPositionAfter,
  type JournalBuilderDeps,
} from './build-journal-event.js'
import { canonicalEventForm } from './event-hash.js'
import type { JournalEvent } from './journal-event.js'
import { verifyChain } from './verify-chain.js'

const sha256Hex = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex')

const KINDS = ['deposit', 'newResource', 'consultation', 'integrityOk', 'integrityKo', 'journalRead'] as const

const stepArb = fc.record({
  kind: fc.constantFrom(...KINDS),
  gapMs: fc.nat({ max: 5_000_000 }),
  archive: fc.constantFrom('mailroom_a1', 'mailroom_a2', 'mailroom_a3'),
  text: fc.string({ maxLength: 12, unit: 'grapheme' }),
  size: fc.nat({ max: 1_000_000 }),
  account: fc.constantFrom('cchaplin', 'bbain', 'superadmin'),
  unit: fc.constantFrom('VILLE', 'PJS', 'COU', ''),
})

type Step = typeof stepArb extends fc.Arbitrary<infer S> ? S : never

function buildChain(safe: string, steps: readonly Step[], seed: string): JournalEvent[] {
  let counter = 0
  const deps: JournalBuilderDeps = { sha256Hex, newEventId: () => `mailroom_${seed}-${++counter}` }
  const events: JournalEvent[] = []
  let clock = Date.UTC(2024, 0, 1)
  for (const step of steps) {
    clock += step.gapMs
    const context = {
      position: chainPositionAfter(safe, events.at(-1) ?? null),
      actor: { accountId: step.account, accountName: `${step.account} name`, orgUnitRegNumber: step.unit },
      timestamp: new Date(clock),
    }
    const resource = { resId: String(step.size % 97), hash: sha256Hex(step.text), size: step.size }
    const archive = { archiveId: step.archive, originatorArchiveId: step.text, resource }
    const orgs = { originatorOrgRegNumber: step.unit, depositorOrgRegNumber: step.text, archiverOrgRegNumber: 'VILLE' }
    switch (step.kind) {
      case 'deposit':
        events.push(buildDepositEvent(deps, { ...context, ...archive, ...orgs }))
        break
      case 'newResource':
        events.push(buildNewResourceEvent(deps, { ...context, ...archive, ...orgs }))
        break
      case 'consultation':
        events.push(buildConsultationEvent(deps, { ...context, ...archive }))
        break
      case 'integrityOk':
      case 'integrityKo':
        events.push(
          buildIntegrityCheckEvent(deps, {
            ...context,
            ...archive,
            requesterOrgRegNumber: step.unit,
            result: step.kind === 'integrityOk' ? { ok: true } : { ok: false, info: step.text },
          }),
        )
        break
      case 'journalRead':
        events.push(
          buildJournalReadEvent(deps, {
            ...context,
            organizationRegNumber: safe,
            orgName: step.text,
            ownerOrgId: safe,
          }),
        )
        break
    }
  }
  return events
}

const chainArb = (minLength: number) =>
  fc.array(stepArb, { minLength, maxLength: 8 }).map((steps) => buildChain('21750001600019', steps, 's'))

/** Every stored field, with info members as `info.<name>`. */
function fieldPaths(event: JournalEvent): string[] {
  return [...Object.keys(event).filter((k) => k !== 'info'), ...Object.keys(event.info).map((k) => `info.${k}`)]
}

function readPath(event: JournalEvent, path: string): unknown {
  return path.startsWith('info.')
    ? (event.info as unknown as Record<string, unknown>)[path.slice(5)]
    : (event as unknown as Record<string, unknown>)[path]
}

function writePath(event: JournalEvent, path: string, value: unknown): JournalEvent {
  if (path.startsWith('info.')) return { ...event, info: { ...event.info, [path.slice(5)]: value } } as JournalEvent
  return { ...event, [path]: value } as JournalEvent
}

/** A value different from `old` (same type, or another type when `retype`). */
function changed(old: unknown, delta: number, text: string, retype: boolean): unknown {
  if (retype) return old === null ? 'x' : typeof old === 'string' ? 0 : null
  if (typeof old === 'string') return old === text ? `${text}x` : text
  if (typeof old === 'number') return old + delta
  if (typeof old === 'boolean') return !old
  // Dates hold whole milliseconds: a fractional delta would change nothing.
  if (old instanceof Date) return new Date(old.getTime() + (Math.trunc(delta) || 1))
  if (old === null) return sha256Hex(text)
  throw new Error(`unexpected field value ${String(old)}`)
}

const deltaArb = fc.oneof(
  fc.integer({ min: 1, max: 1_000_000 }),
  fc.integer({ min: -1_000_000, max: -1 }),
  fc.constant(0.5),
)

describe('verifyChain', () => {
  it('accepts valid chains and reports their length and head', () => {
    fc.assert(
      fc.property(chainArb(0), (chain) => {
        expect(verifyChain(chain, sha256Hex)).toEqual({
          ok: true,
          count: chain.length,
          headHash: chain.at(-1)?.hash ?? null,
        })
        const last = chain.at(-1)
        if (last)
          expect(verifyChain(chain, sha256Hex, { checkpoint: { sequence: last.sequence, hash: last.hash } }).ok).toBe(
            true,
          )
      }),
      { numRuns: 200 },
    )
  })

  it('detects any single change to any field of any event, as an edit at that event', () => {
    const arb = chainArb(1).chain((chain) =>
      fc.record({
        chain: fc.constant(chain),
        index: fc.nat({ max: chain.length - 1 }),
        pick: fc.nat(),
        delta: deltaArb,
        text: fc.string({ maxLength: 8 }),
        retype: fc.boolean(),
      }),
    )
    fc.assert(
      fc.property(arb, ({ chain, index, pick, delta, text, retype }) => {
        const event = chain[index]!
        const paths = fieldPaths(event)
        const path = paths[pick % paths.length]!
        const tampered = chain.slice()
        tampered[index] = writePath(event, path, changed(readPath(event, path), delta, text, retype))
        const result = verifyChain(tampered, sha256Hex)
        expect(result).toMatchObject({ ok: false, reason: 'edited', at: { index } })
      }),
      { numRuns: 500 },
    )
  })

  it('detects any deletion (the last one against a checkpoint)', () => {
    const arb = chainArb(1).chain((chain) =>
      fc.record({ chain: fc.constant(chain), index: fc.nat({ max: chain.length - 1 }) }),
    )
    fc.assert(
      fc.property(arb, ({ chain, index }) => {
        const head = chain.at(-1)!
        const tampered = chain.filter((_, i) => i !== index)
        const checked = verifyChain(tampered, sha256Hex, { checkpoint: { sequence: head.sequence, hash: head.hash } })
        expect(checked.ok).toBe(false)
        if (index < chain.length - 1) {
          expect(verifyChain(tampered, sha256Hex)).toMatchObject({
            ok: false,
            reason: 'deleted-or-inserted',
            at: { index },
          })
        } else {
          expect(checked).toMatchObject({ ok: false, reason: 'truncated' })
        }
      }),
      { numRuns: 300 },
    )
  })

  it('detects any swap of two events as a reordering', () => {
    const arb = chainArb(2).chain((chain) =>
      fc
        .uniqueArray(fc.nat({ max: chain.length - 1 }), { minLength: 2, maxLength: 2 })
        .map(([a, b]) => ({ chain, i: Math.min(a!, b!), j: Math.max(a!, b!) })),
    )
    fc.assert(
      fc.property(arb, ({ chain, i, j }) => {
        const tampered = chain.slice()
        tampered[i] = chain[j]!
        tampered[j] = chain[i]!
        expect(verifyChain(tampered, sha256Hex)).toMatchObject({ ok: false, reason: 'reordered', at: { index: i } })
      }),
      { numRuns: 300 },
    )
  })

  it('detects any insertion before the head: a copy, a foreign event or a well-formed forgery', () => {
    const arb = chainArb(1).chain((chain) =>
      fc.record({
        chain: fc.constant(chain),
        at: fc.nat({ max: chain.length - 1 }),
        source: fc.nat({ max: chain.length - 1 }),
        how: fc.constantFrom('copy', 'foreign', 'forged'),
        step: stepArb,
      }),
    )
    fc.assert(
      fc.property(arb, ({ chain, at, source, how, step }) => {
        let inserted: JournalEvent
        if (how === 'copy') inserted = chain[source]!
        else if (how === 'foreign') inserted = buildChain('OTHER', [step], 'f')[0]!
        else {
          // Forged with full knowledge: right sequence, right link, right hash, right time.
          const prefix = chain.slice(0, at)
          const previous = prefix.at(-1)
          const [forged] = buildChain('21750001600019', [{ ...step, gapMs: 0 }], 'forged')
          const position = chainPositionAfter('21750001600019', previous ?? null)
          inserted = rehash({
            ...forged!,
            sequence: position.sequence,
            previousHash: position.previousHash,
            timestamp: previous?.timestamp ?? chain[0]!.timestamp,
          })
        }
        const tampered = [...chain.slice(0, at), inserted, ...chain.slice(at)]
        const result = verifyChain(tampered, sha256Hex)
        expect(result.ok).toBe(false)
        if (how === 'forged')
          expect(result).toMatchObject({ ok: false, reason: 'deleted-or-inserted', at: { index: at + 1 } })
      }),
      { numRuns: 300 },
    )
  })

  it('verifies a chain page by page exactly as in one piece (the after option)', () => {
    const arb = chainArb(0).chain((chain) =>
      fc.record({
        chain: fc.constant(chain),
        size: fc.integer({ min: 1, max: 4 }),
        drop: fc.option(fc.nat({ max: Math.max(0, chain.length - 1) }), { nil: undefined }),
      }),
    )
    fc.assert(
      fc.property(arb, ({ chain, size, drop }) => {
        const head = chain.at(-1)
        const checkpoint = head ? { sequence: head.sequence, hash: head.hash } : undefined
        const events = drop === undefined ? chain : chain.filter((_, i) => i !== drop)
        const whole = verifyChain(events, sha256Hex, checkpoint ? { checkpoint } : {})
        let after: JournalEvent | undefined
        let paged: ReturnType<typeof verifyChain> = { ok: true, count: 0, headHash: null }
        for (let start = 0; start < events.length || start === 0; start += size) {
          const page = events.slice(start, start + size)
          const last = start + size >= events.length
          const result = verifyChain(page, sha256Hex, {
            ...(after ? { after } : {}),
            ...(checkpoint && last ? { checkpoint } : {}),
            safe: '21750001600019',
          })
          if (!result.ok) {
            paged = { ...result, at: { ...result.at, index: result.at.index + start } }
            break
          }
          after = page.at(-1) ?? after
          if (last) break
        }
        expect(paged.ok).toBe(whole.ok)
        if (!whole.ok && !paged.ok)
          expect([paged.reason, paged.at.index, paged.at.sequence]).toEqual([
            whole.reason,
            whole.at.index,
            whole.at.sequence,
          ])
      }),
      { numRuns: 300 },
    )
  })

  it('names the reason for links, time, safes and checkpoints', () => {
    const chain = buildChain(
      'S',
      [0, 1, 2].map(
        (n) =>
          ({
            kind: 'consultation',
            gapMs: 1000,
            archive: 'mailroom_a1',
            text: `t${n}`,
            size: n,
            account: 'cchaplin',
            unit: 'VILLE',
          }) as Step,
      ),
      'n',
    )
    const [first, second, third] = chain as [JournalEvent, JournalEvent, JournalEvent]
    // Re-hashed edits: only the link or the clock betrays them.
    expect(verifyChain([first, rehash({ ...second, previousHash: sha256Hex('x') }), third], sha256Hex)).toMatchObject({
      ok: false,
      reason: 'broken-link',
      at: { index: 1, sequence: 2 },
    })
    expect(verifyChain([rehash({ ...first, previousHash: sha256Hex('x') })], sha256Hex)).toMatchObject({
      ok: false,
      reason: 'broken-link',
      at: { index: 0 },
    })
    const early = rehash({ ...second, previousHash: first.hash, timestamp: new Date(first.timestamp.getTime() - 1) })
    expect(verifyChain([first, early], sha256Hex)).toMatchObject({ ok: false, reason: 'reordered', at: { index: 1 } })
    expect(verifyChain(chain, sha256Hex, { safe: 'T' })).toMatchObject({
      ok: false,
      reason: 'wrong-safe',
      at: { index: 0 },
    })
    expect(verifyChain(chain, sha256Hex, { checkpoint: { sequence: 2, hash: third.hash } })).toMatchObject({
      ok: false,
      reason: 'checkpoint-mismatch',
      at: { sequence: 2 },
    })
    expect(verifyChain(chain, sha256Hex, { checkpoint: { sequence: 2, hash: second.hash } }).ok).toBe(true)
    expect(verifyChain([], sha256Hex, { checkpoint: { sequence: 1, hash: first.hash } })).toMatchObject({
      ok: false,
      reason: 'truncated',
      at: { index: 0, sequence: null },
    })
    expect(verifyChain([], sha256Hex)).toEqual({ ok: true, count: 0, headHash: null })
  })
})

function rehash(event: JournalEvent): JournalEvent {
  const { hash: _ignored, ...rest } = event
  // Spelled out here so that the test pins the documented formula.
  return {
    ...rest,
    hash: sha256Hex(`${rest.previousHash ?? ''}\n${canonicalEventForm(rest as JournalEvent)}`),
  } as JournalEvent
}

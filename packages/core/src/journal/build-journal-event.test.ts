import { createHash } from 'node:crypto'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { isDomainError } from '../errors/domain-error.js'
import {
  buildConsultationEvent,
  buildDepositEvent,
  buildIntegrityCheckEvent,
  buildJournalReadEvent,
  buildNewResourceEvent,
  buildPendingConsultationEvent,
  buildPendingDepositEvent,
  chainPositionAfter,
  createJournalEventIdGenerator,
  type JournalBuilderDeps,
} from './build-journal-event.js'
import { canonicalEventForm, computeEventHash, eventHashInput } from './event-hash.js'
import { JOURNAL_EVENT_ID_PATTERN } from './journal-event.js'
import { verifyChain } from './verify-chain.js'

const sha256Hex = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex')
const fileHash = sha256Hex('file bytes')
const actor = { accountId: 'cchaplin', accountName: 'Charlie Chaplin', orgUnitRegNumber: 'VILLE' }
const SAFE = '21750001600019'

function deps(): JournalBuilderDeps {
  let n = 0
  return { sha256Hex, newEventId: () => `mailroom_test-${++n}` }
}

/** A first deposit in SAFE. */
const DEPOSIT = {
  position: chainPositionAfter(SAFE, null),
  actor,
  timestamp: new Date('2024-05-06T07:08:09.123Z'),
  archiveId: 'mailroom_arch-1',
  resource: { resId: '42', hash: fileHash, size: 10 },
  originatorOrgRegNumber: 'PJS',
  depositorOrgRegNumber: 'VILLE',
  archiverOrgRegNumber: 'VILLE',
  originatorArchiveId: '42',
}

describe('journal event builders', () => {
  it('builds a deposit with the upstream deposit fields, its description and its hash', () => {
    const d = deps()
    const event = buildDepositEvent(d, DEPOSIT)
    expect(event).toEqual({
      eventId: 'mailroom_test-1',
      safe: SAFE,
      sequence: 1,
      eventType: 'recordsManagement/deposit',
      timestamp: new Date('2024-05-06T07:08:09.123Z'),
      instanceName: 'mailroom',
      orgRegNumber: SAFE,
      orgUnitRegNumber: 'VILLE',
      accountId: 'cchaplin',
      accountName: 'Charlie Chaplin',
      objectClass: 'recordsManagement/archive',
      objectId: 'mailroom_arch-1',
      operationResult: true,
      description: 'Deposit of archive mailroom_arch-1',
      info: {
        resId: '42',
        hashAlgorithm: 'SHA256',
        hash: fileHash,
        originatorOrgRegNumber: 'PJS',
        depositorOrgRegNumber: 'VILLE',
        archiverOrgRegNumber: 'VILLE',
        size: 10,
        originatorArchiveId: '42',
      },
      previousHash: null,
      hash: event.hash,
    })
    expect(event.hash).toBe(sha256Hex(`\n${canonicalEventForm(event)}`))
    expect(canonicalEventForm(event)).toBe(
      '{"accountId":"cchaplin","accountName":"Charlie Chaplin","description":"Deposit of archive mailroom_arch-1",' +
        '"eventId":"mailroom_test-1","eventType":"recordsManagement/deposit","info":{"archiverOrgRegNumber":"VILLE",' +
        `"depositorOrgRegNumber":"VILLE","hash":"${fileHash}","hashAlgorithm":"SHA256","originatorArchiveId":"42",` +
        '"originatorOrgRegNumber":"PJS","resId":"42","size":10},"instanceName":"mailroom","objectClass":"recordsManagement/archive",' +
        '"objectId":"mailroom_arch-1","operationResult":true,"orgRegNumber":"21750001600019","orgUnitRegNumber":"VILLE",' +
        '"previousHash":null,"safe":"21750001600019","sequence":1,"timestamp":"2024-05-06T07:08:09.123Z"}',
    )
  })

  it('says where an imported file came from in the deposit description, which the hash covers', () => {
    const provenance = 'imported from Maarch Courrier 20.10 record 42, source fingerprint SHA512 0'
    const event = buildDepositEvent(deps(), { ...DEPOSIT, provenance })
    expect(event.description).toBe(`Deposit of archive mailroom_arch-1: ${provenance}`)
    expect(event.info).toEqual(buildDepositEvent(deps(), DEPOSIT).info)
    expect(event.hash).toBe(computeEventHash(event, sha256Hex))
    expect(event.hash).not.toBe(buildDepositEvent(deps(), DEPOSIT).hash)
  })

  it('chains every kind of event and keeps timestamps non-decreasing', () => {
    const d = deps()
    const base = { actor, archiveId: 'mailroom_arch-1', originatorArchiveId: '42' }
    const resource = { resId: '42', hash: fileHash, size: 10 }
    const first = buildDepositEvent(d, {
      ...base,
      position: chainPositionAfter(SAFE, null),
      timestamp: new Date('2024-05-06T10:00:00Z'),
      resource,
      originatorOrgRegNumber: 'PJS',
      depositorOrgRegNumber: '',
      archiverOrgRegNumber: 'VILLE',
    })
    const second = buildNewResourceEvent(d, {
      ...base,
      position: chainPositionAfter(SAFE, first),
      timestamp: new Date('2024-05-06T11:00:00Z'),
      resource: { ...resource, hash: sha256Hex('v2'), size: 2 },
      originatorOrgRegNumber: 'PJS',
      depositorOrgRegNumber: 'PJS',
      archiverOrgRegNumber: 'VILLE',
    })
    // The clock went backwards: the event takes the previous timestamp.
    const third = buildConsultationEvent(d, {
      ...base,
      position: chainPositionAfter(SAFE, second),
      timestamp: new Date('2024-05-06T09:00:00Z'),
      resource,
    })
    const fourth = buildIntegrityCheckEvent(d, {
      ...base,
      position: chainPositionAfter(SAFE, third),
      timestamp: new Date('2024-05-06T12:00:00Z'),
      resource,
      requesterOrgRegNumber: 'VILLE',
      result: { ok: false, info: 'Fingerprints do not match' },
    })
    const fifth = buildIntegrityCheckEvent(d, {
      ...base,
      position: chainPositionAfter(SAFE, fourth),
      timestamp: new Date('2024-05-06T12:00:01Z'),
      resource,
      requesterOrgRegNumber: 'VILLE',
      result: { ok: true },
    })
    const sixth = buildJournalReadEvent(d, {
      position: chainPositionAfter(SAFE, fifth),
      actor,
      timestamp: new Date('2024-05-06T13:00:00Z'),
      organizationRegNumber: SAFE,
      orgName: 'Ville de Maarch-les-Bains',
      ownerOrgId: SAFE,
    })
    const chain = [first, second, third, fourth, fifth, sixth]
    expect(chain.map((e) => e.sequence)).toEqual([1, 2, 3, 4, 5, 6])
    expect(second.description).toBe('Deposit of a resource in archive mailroom_arch-1')
    expect(third.timestamp).toEqual(second.timestamp)
    expect(third.description).toBe('Consultation of resource 42')
    expect(third.info).toEqual({
      resId: '42',
      hashAlgorithm: 'SHA256',
      hash: fileHash,
      size: 10,
      originatorArchiveId: '42',
    })
    expect(fourth.operationResult).toBe(false)
    expect(fourth.info.info).toBe('Fingerprints do not match')
    expect(fifth.operationResult).toBe(true)
    expect(fifth.info.info).toBe('Checking succeeded')
    expect(fifth.description).toBe('Integrity check of resource 42')
    expect(sixth).toMatchObject({
      objectClass: 'organization/organization',
      objectId: SAFE,
      description: `Reading of the journal of organization ${SAFE}`,
      info: { orgName: 'Ville de Maarch-les-Bains', ownerOrgId: SAFE },
    })
    expect(second.previousHash).toBe(first.hash)
    expect(eventHashInput(second)).toBe(`${first.hash}\n${canonicalEventForm(second)}`)
    for (const event of chain) expect(computeEventHash(event, sha256Hex)).toBe(event.hash)
    expect(verifyChain(chain, sha256Hex)).toEqual({ ok: true, count: 6, headHash: sixth.hash })
  })

  it('refuses malformed ids, hashes, sizes and positions as internal errors', () => {
    const input = {
      position: chainPositionAfter(SAFE, null),
      actor,
      timestamp: new Date(),
      archiveId: 'a',
      resource: { resId: '1', hash: fileHash, size: 1 },
      originatorArchiveId: '1',
    }
    const attempt = (f: () => unknown) => {
      try {
        f()
      } catch (error) {
        if (isDomainError(error)) return `${error.kind}: ${error.message}`
        throw error
      }
      return 'ok'
    }
    expect(attempt(() => buildConsultationEvent({ sha256Hex, newEventId: () => 'maarchRM_x' }, input))).toBe(
      'internal: Journal event field eventId is malformed',
    )
    expect(attempt(() => buildConsultationEvent({ sha256Hex, newEventId: () => 'mailroom_a b' }, input))).toBe(
      'internal: Journal event field eventId is malformed',
    )
    expect(
      attempt(() =>
        buildConsultationEvent(deps(), { ...input, resource: { resId: '1', hash: fileHash.toUpperCase(), size: 1 } }),
      ),
    ).toBe('internal: Journal event field hash is malformed')
    expect(
      attempt(() => buildConsultationEvent(deps(), { ...input, resource: { resId: '1', hash: fileHash, size: 1.5 } })),
    ).toBe('internal: Journal event field size is malformed')
    expect(
      attempt(() => buildConsultationEvent(deps(), { ...input, position: { ...input.position, sequence: 2 } })),
    ).toBe('internal: Journal event field previousHash is malformed')
    expect(attempt(() => buildConsultationEvent(deps(), { ...input, timestamp: new Date(Number.NaN) }))).toBe(
      'internal: Journal event field timestamp is malformed',
    )
    expect(attempt(() => buildConsultationEvent(deps(), input))).toBe('ok')
  })

  it('generates mailroom_ ids from time and random bytes', () => {
    let counter = 0
    const next = createJournalEventIdGenerator({
      now: () => 1_700_000_000_000,
      randomBytes: (n) => Uint8Array.from({ length: n }, () => counter++),
    })
    const id = next()
    expect(id).toBe('mailroom_loyw3v28-00010203040506070809')
    expect(id).toMatch(JOURNAL_EVENT_ID_PATTERN)
    expect(next()).not.toBe(id)
  })

  it('writes every random byte as two lower-case hex digits', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 10, maxLength: 10 }), (bytes) => {
        const id = createJournalEventIdGenerator({ now: () => 0, randomBytes: () => bytes })()
        expect(id).toBe(`mailroom_0-${Buffer.from(bytes).toString('hex')}`)
        expect(id).toMatch(JOURNAL_EVENT_ID_PATTERN)
      }),
    )
  })

  it('builds pending deposits and consultations as the sealed events without their hash, and hashes nothing', () => {
    const input = DEPOSIT
    const noHashing: JournalBuilderDeps = {
      sha256Hex: () => {
        throw new Error('hashed')
      },
      newEventId: () => 'mailroom_test-1',
    }
    const { hash: _deposit, ...deposit } = buildDepositEvent(deps(), input)
    expect(buildPendingDepositEvent(noHashing, input)).toEqual(deposit)
    const { hash: _consultation, ...consultation } = buildConsultationEvent(deps(), input)
    expect(buildPendingConsultationEvent(noHashing, input)).toEqual(consultation)
    expect(() =>
      buildPendingConsultationEvent(noHashing, { ...input, resource: { ...input.resource, size: -1 } }),
    ).toThrow('Journal event field size is malformed')
  })
})

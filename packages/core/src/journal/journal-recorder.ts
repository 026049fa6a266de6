import { type Actor, displayName, primaryEntityOf } from '../actors/actor.js'
import type { Clock } from '../auth/ports.js'
import { fail } from '../errors/domain-error.js'
import {
  buildIntegrityCheckEvent,
  buildJournalReadEvent,
  buildNewResourceEvent,
  buildPendingConsultationEvent,
  buildPendingDepositEvent,
  chainPositionAfter,
  createJournalEventIdGenerator,
  type DepositEventInput,
  type JournalActor,
  type JournalBuilderDeps,
  type JournalChainPosition,
} from './build-journal-event.js'
import { computeEventHash } from './event-hash.js'
import type { JournalEvent, Sha256Hex, UnhashedJournalEvent } from './journal-event.js'
import type { SafeDirectory } from './safe-directory.js'

/** An archive of the journal: a record's files, in one safe. */
export interface JournalArchive {
  readonly archiveId: string
  readonly safe: string
}

/** A stored file entering the journal: on creation (deposit) or as a new version or attachment (new resource). */
export interface JournalFileEntry {
  readonly resId: number
  /** entity_id of the record's destination (null: none). */
  readonly destination: string | null
  /** Lower-case hex SHA-256 of the stored bytes. */
  readonly sha256: string
  readonly size: number
  readonly actor: Actor
  /** Where the file came from when not from a create (an import, with its source fingerprint). */
  readonly provenance?: string
}

/** A record's file that was served (consultation) or checked (integrity check). */
export interface JournalFileRead {
  readonly resId: number
  readonly sha256: string
  readonly size: number
  readonly actor: Actor
}

/** A safe's chain end as storage read it under the lock of its head (sequence 0: an empty chain). */
export interface JournalChainHead {
  readonly safe: string
  readonly sequence: number
  readonly hash: string
  /** Timestamp of the event at `sequence` (null for an empty chain, or when that row is gone). */
  readonly timestamp: Date | null
}

/** An event written pending: complete but for its chain position and hash, which its seal gives it. */
export type PendingJournalEvent = Omit<UnhashedJournalEvent, 'sequence' | 'previousHash'>

/**
 * The journal's events as core words them, for storage to persist. Events about a file are written pending (no
 * lock, in the caller's transaction) and placed on their safe's chain when sealed ({@link linkJournalEvent});
 * a journal read is chained at once after the head storage locked.
 *
 * Organisation numbers: orgRegNumber is the safe; orgUnitRegNumber and depositorOrgRegNumber the actor's
 * primary entity_id ('' without entity); originatorOrgRegNumber the record's destination (the safe's keeper
 * when it has none or it is not in the tree); archiverOrgRegNumber the safe's top-level entity_id.
 * accountId is the actor's login (stable and unique; the interface shows no numeric ids) and accountName
 * their display name (first and last name, else the login). originatorArchiveId is the resId in decimal.
 */
export interface JournalRecorder {
  /** A record's new archive, in the safe of its destination (`JOURNAL_NO_SAFE` when there is no safe at all). */
  newArchive(directory: SafeDirectory, destination: string | null): JournalArchive
  /** `recordsManagement/deposit` (a new archive's first file) or `depositNewResource` (a file joining one). */
  fileEntered(
    directory: SafeDirectory,
    archive: JournalArchive,
    entry: JournalFileEntry,
    kind: 'deposit' | 'newResource',
  ): PendingJournalEvent
  /** `recordsManagement/consultation`: a record's content was served. */
  consultation(archive: JournalArchive, read: JournalFileRead): PendingJournalEvent
  /** `recordsManagement/integrityCheck`; `info` says what went wrong when `ok` is false. */
  integrityCheck(archive: JournalArchive, read: JournalFileRead & { ok: boolean; info: string }): PendingJournalEvent
  /** `organization/journal`: a read of a safe's journal, chained at once after `head`. */
  journalRead(
    head: JournalChainHead,
    read: { readonly organizationRegNumber: string; readonly orgName: string; readonly actor: Actor },
  ): JournalEvent
}

/** What the recorder needs: the hash function, the clock, and either event ids or random bytes to make them. */
export interface JournalRecorderDependencies {
  readonly sha256Hex: Sha256Hex
  readonly clock: Clock
  /** Event and archive identifiers (`mailroom_<unique>`); default: time-prefixed ids over `randomBytes`. */
  readonly newEventId?: () => string
  /** Cryptographically random bytes (node:crypto in the adapter), for the default identifiers. */
  readonly randomBytes: (size: number) => Uint8Array
}

/** Who acts, as the journal records it. */
function journalActor(actor: Actor): JournalActor {
  return {
    accountId: actor.login,
    accountName: displayName(actor),
    orgUnitRegNumber: primaryEntityOf(actor)?.entityId ?? '',
  }
}

/** The content of an event written pending: its provisional position (first of its safe) left out. */
function pending(event: UnhashedJournalEvent): PendingJournalEvent {
  const { sequence: _sequence, previousHash: _previous, hash: _hash, ...content } = event as JournalEvent
  return content
}

/** Where the event after `head` goes. */
function positionAfter(head: JournalChainHead): JournalChainPosition {
  if (head.sequence === 0) return chainPositionAfter(head.safe, null)
  return { safe: head.safe, sequence: head.sequence + 1, previousHash: head.hash, previousTimestamp: head.timestamp }
}

/** The journal's recorder over its effects (see {@link JournalRecorder}). */
export function createJournalRecorder(deps: JournalRecorderDependencies): JournalRecorder {
  const { clock } = deps
  const newEventId =
    deps.newEventId ?? createJournalEventIdGenerator({ now: () => Date.now(), randomBytes: deps.randomBytes })
  const builders: JournalBuilderDeps = { sha256Hex: deps.sha256Hex, newEventId }

  /** The shared inputs of an event about a file of `archive`, at a provisional position. */
  const aboutFile = (archive: JournalArchive, file: JournalFileRead) => ({
    position: chainPositionAfter(archive.safe, null),
    actor: journalActor(file.actor),
    timestamp: clock.now(),
    archiveId: archive.archiveId,
    resource: { resId: String(file.resId), hash: file.sha256, size: file.size },
    originatorArchiveId: String(file.resId),
  })

  return {
    newArchive(directory, destination) {
      const safe = directory.safeForRecord(destination) ?? fail('JOURNAL_NO_SAFE')
      return { archiveId: newEventId(), safe }
    },

    fileEntered(directory, archive, entry, kind) {
      const keeper = directory.keeperOfSafe(archive.safe) ?? ''
      const destination = entry.destination
      const originator =
        destination !== null && destination !== '' && directory.topLevelOf(destination) !== null ? destination : keeper
      const common = aboutFile(archive, entry)
      const input: DepositEventInput = {
        ...common,
        originatorOrgRegNumber: originator,
        depositorOrgRegNumber: common.actor.orgUnitRegNumber,
        archiverOrgRegNumber: keeper,
        ...(entry.provenance === undefined ? {} : { provenance: entry.provenance }),
      }
      // A deposit is never hashed before its seal; a new resource's builder hashes (its hash is not kept).
      return pending(
        kind === 'deposit' ? buildPendingDepositEvent(builders, input) : buildNewResourceEvent(builders, input),
      )
    },

    consultation: (archive, read) => pending(buildPendingConsultationEvent(builders, aboutFile(archive, read))),

    integrityCheck(archive, read) {
      const common = aboutFile(archive, read)
      return pending(
        buildIntegrityCheckEvent(builders, {
          ...common,
          requesterOrgRegNumber: common.actor.orgUnitRegNumber,
          result: read.ok ? { ok: true } : { ok: false, info: read.info },
        }),
      )
    },

    journalRead: (head, read) =>
      buildJournalReadEvent(builders, {
        position: positionAfter(head),
        actor: journalActor(read.actor),
        timestamp: clock.now(),
        organizationRegNumber: read.organizationRegNumber,
        orgName: read.orgName,
        ownerOrgId: head.safe,
      }),
  }
}

/**
 * A pending event placed after `head`: its content unchanged but for the timestamp, raised to the previous
 * event's when an earlier-written event was sealed first (as the builders raise a clock that went backwards), so
 * timestamps never decrease along a chain; then its hash over the position.
 */
export function linkJournalEvent(
  event: PendingJournalEvent,
  head: JournalChainHead,
  sha256Hex: Sha256Hex,
): JournalEvent {
  const position = positionAfter(head)
  const previous = position.previousTimestamp
  const written = event.timestamp
  const timestamp = previous !== null && previous.getTime() > written.getTime() ? new Date(previous.getTime()) : written
  const unhashed = {
    ...event,
    safe: position.safe,
    sequence: position.sequence,
    previousHash: position.previousHash,
    timestamp,
  } as unknown as UnhashedJournalEvent
  return { ...unhashed, hash: computeEventHash(unhashed, sha256Hex) } as JournalEvent
}

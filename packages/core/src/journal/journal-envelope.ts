import { formatJournalTimestamp, type LifeCycleEvent } from './life-cycle-event.js'

/** What every envelope starts with. */
export interface JournalEnvelopeHead {
  /** The safe named in the path. */
  readonly owner: string
  /** Time of the request. */
  readonly timestamp: Date
  /** The caller's account name ('' when the caller is unknown, e.g. 401). */
  readonly accountName: string
}

/** Successful response body of `/events`. */
export interface JournalEnvelope {
  readonly originatorOwnerOrgRegNumber: string
  readonly timestamp: string
  readonly accountName: string
  readonly operationResult: true
  readonly lifeCycleEvents: readonly LifeCycleEvent[]
}

/** Error body of the digital-safe operation: the envelope with `operationResult: false` and a message. */
export interface JournalErrorEnvelope {
  readonly originatorOwnerOrgRegNumber: string
  readonly timestamp: string
  readonly accountName: string
  readonly operationResult: false
  readonly message: string
}

/** The whole success envelope, for small answers and tests; large ones use {@link envelopeHead} and friends. */
export function journalEnvelope(
  input: JournalEnvelopeHead & { readonly events: readonly LifeCycleEvent[] },
): JournalEnvelope {
  return {
    originatorOwnerOrgRegNumber: input.owner,
    timestamp: formatJournalTimestamp(input.timestamp),
    accountName: input.accountName,
    operationResult: true,
    lifeCycleEvents: input.events,
  }
}

/** The error envelope carrying a DomainError's message. */
export function journalErrorEnvelope(input: JournalEnvelopeHead & { readonly message: string }): JournalErrorEnvelope {
  return {
    originatorOwnerOrgRegNumber: input.owner,
    timestamp: formatJournalTimestamp(input.timestamp),
    accountName: input.accountName,
    operationResult: false,
    message: input.message,
  }
}

/**
 * Streaming form, part 1: the envelope's JSON up to and including the `[` that opens lifeCycleEvents.
 * `envelopeHead(h) + events.map(renderLifeCycleEvent).join(',') + envelopeTail()` is exactly
 * `JSON.stringify(journalEnvelope({...h, events}))`.
 */
export function envelopeHead(head: JournalEnvelopeHead): string {
  const json = JSON.stringify(journalEnvelope({ ...head, events: [] }))
  // The empty array is the last member, so its text ends with `[]}`.
  return json.slice(0, -2)
}

/** Streaming form, part 3: closes lifeCycleEvents and the envelope. */
export function envelopeTail(): string {
  return ']}'
}

/** Streaming form, part 2: one life-cycle event's JSON (events are separated by a comma). */
export function renderLifeCycleEvent(event: LifeCycleEvent): string {
  return JSON.stringify(event)
}

/**
 * The envelope as chunks over an async sequence of events, for an HTTP adapter to pipe: constant memory
 * whatever the number of events. Each yielded chunk is a string; the first is the head.
 */
export async function* streamJournalEnvelope(
  head: JournalEnvelopeHead,
  events: AsyncIterable<LifeCycleEvent> | Iterable<LifeCycleEvent>,
): AsyncGenerator<string, void, undefined> {
  yield envelopeHead(head)
  let first = true
  for await (const event of events) {
    yield first ? renderLifeCycleEvent(event) : `,${renderLifeCycleEvent(event)}`
    first = false
  }
  yield envelopeTail()
}

/**
 * The envelope's text in chunks of about `chunkBytes`, for an HTTP adapter to pipe: head, events separated by
 * commas, tail. `first` is the events' first step, taken by the caller before it answers so that its failure
 * still gets an error envelope; the rest are read on demand, and stopped when the stream ends early.
 */
export async function* journalEnvelopeChunks(
  head: JournalEnvelopeHead,
  first: IteratorResult<LifeCycleEvent, unknown>,
  rest: AsyncIterator<LifeCycleEvent, unknown, undefined>,
  chunkBytes: number,
): AsyncGenerator<string, void, undefined> {
  let buffer = envelopeHead(head)
  try {
    let next = first
    let separator = ''
    while (!next.done) {
      buffer += separator + renderLifeCycleEvent(next.value)
      separator = ','
      if (buffer.length >= chunkBytes) {
        yield buffer
        buffer = ''
      }
      next = await rest.next()
    }
  } finally {
    // Client gone or stream failed: stop the paging too.
    await rest.return?.()
  }
  yield buffer + envelopeTail()
}

import { describe, expect, it } from 'vitest'
import { LeaseKeeper, type LeaseScheduler } from './lease-keeper.js'

/** A simulated clock: timers run only when the test moves time on, in order, each with its promises settled. */
class SimulatedScheduler implements LeaseScheduler {
  time = 0
  /** Extra delay given to the next timers that fire (an event loop busy elsewhere). */
  lateness: number[] = []
  #timers: { at: number; run: () => void; id: number }[] = []
  #next = 0

  now(): number {
    return this.time
  }

  setTimeout(run: () => void, ms: number): unknown {
    const id = this.#next++
    this.#timers.push({ at: this.time + ms + (this.lateness.shift() ?? 0), run, id })
    return id
  }

  clearTimeout(handle: unknown): void {
    this.#timers = this.#timers.filter((timer) => timer.id !== handle)
  }

  /** A promise settled after `ms` of simulated time (a renewal's round trip). */
  delay(ms: number): Promise<void> {
    return new Promise((resolve) => this.setTimeout(resolve, ms))
  }

  async advanceTo(end: number): Promise<void> {
    for (;;) {
      await settle()
      this.#timers.sort((a, b) => a.at - b.at || a.id - b.id)
      const timer = this.#timers[0]
      if (!timer || timer.at > end) break
      this.#timers.shift()
      this.time = timer.at
      timer.run()
    }
    this.time = end
    await settle()
  }
}

async function settle(): Promise<void> {
  for (let i = 0; i < 20; i++) await Promise.resolve()
}

const LEASE = 90_000

/**
 * A job's lease as the database holds it: each successful renewal extends it to the time the statement ran
 * (at the latest, when its answer comes back) plus the lease; `expiredAt` notes the first time the job
 * could have been taken over.
 */
function databaseLease(scheduler: SimulatedScheduler, roundTripMs: (call: number) => number) {
  const state = {
    asks: [] as number[],
    until: LEASE,
    expiredAt: null as number | null,
    answer: (_call: number): boolean | Error => true,
  }
  const renew = async () => {
    const call = state.asks.length
    state.asks.push(scheduler.now())
    await scheduler.delay(roundTripMs(call))
    // The statement runs just before its answer: the most pessimistic moment for the lease.
    if (scheduler.now() > state.until && state.expiredAt === null) state.expiredAt = state.until
    const answer = state.answer(call)
    if (answer instanceof Error) throw answer
    if (answer) state.until = scheduler.now() + LEASE
    return answer
  }
  return { state, renew }
}

describe('LeaseKeeper', () => {
  it('asks a third of the lease after the last successful ask, however long each renewal takes to answer', async () => {
    const scheduler = new SimulatedScheduler()
    // Renewals answered after a quarter of the lease: counted from answers, a third-of-lease timer would ask
    // at 30, 82.5, 135 s... and the lease (from the statements, run just before the answers) would still hold;
    // counted from asks they come every 30 s.
    const { state, renew } = databaseLease(scheduler, () => LEASE / 4)
    const keeper = new LeaseKeeper({ leaseMs: LEASE, renew, scheduler }, 0)
    await scheduler.advanceTo(10 * LEASE)
    keeper.stop()
    expect(state.asks.slice(0, 6)).toEqual([30_000, 60_000, 90_000, 120_000, 150_000, 180_000])
    expect(state.expiredAt).toBeNull()
  })

  it('counts the first renewal from the moment the claim was sent, not from when the keeper started', async () => {
    const scheduler = new SimulatedScheduler()
    const { state, renew } = databaseLease(scheduler, () => 10)
    // The claim was sent at 0 and answered 25 s later (a loaded database): the keeper starts at 25 s.
    scheduler.time = 25_000
    const keeper = new LeaseKeeper({ leaseMs: LEASE, renew, scheduler }, 0)
    expect(keeper.heldUntil).toBe(LEASE)
    await scheduler.advanceTo(61_000)
    keeper.stop()
    expect(state.asks).toEqual([30_000, 60_000])
  })

  it('keeps every gap between successful asks within a third of the lease plus the lateness of one timer', async () => {
    const scheduler = new SimulatedScheduler()
    // Slow, irregular round trips, and timers that fire up to 20 s late (an event loop blocked by other work).
    const { state, renew } = databaseLease(scheduler, (call) => [500, 12_000, 3_000, 25_000][call % 4]!)
    scheduler.lateness = Array.from({ length: 100 }, (_, i) => [0, 20_000, 5_000][i % 3]!)
    const keeper = new LeaseKeeper({ leaseMs: LEASE, renew, scheduler }, 0)
    await scheduler.advanceTo(20 * LEASE)
    keeper.stop()
    expect(state.asks.length).toBeGreaterThan(15)
    const gaps = state.asks.map((ask, i) => ask - (state.asks[i - 1] ?? 0))
    for (const gap of gaps) expect(gap).toBeLessThanOrEqual(LEASE / 3 + 20_000)
    expect(state.expiredAt).toBeNull()
  })

  it('tries a failed renewal again soon, then counts from the ask that succeeded', async () => {
    const scheduler = new SimulatedScheduler()
    const { state, renew } = databaseLease(scheduler, () => 100)
    state.answer = (call) => (call === 0 ? new Error('connection terminated') : true)
    const errors: unknown[] = []
    const keeper = new LeaseKeeper({ leaseMs: LEASE, renew, scheduler, onError: (error) => errors.push(error) }, 0)
    await scheduler.advanceTo(70_000)
    keeper.stop()
    // Failed at 30 s (answered at 30.1 s), tried again 7.5 s later, then a third of the lease after that ask.
    expect(state.asks).toEqual([30_000, 37_600, 67_600])
    expect(errors).toEqual([new Error('connection terminated')])
    expect(keeper.lost).toBe(false)
  })

  it('stops and says so once when the lease is found taken over; stop() ends the renewals', async () => {
    const scheduler = new SimulatedScheduler()
    const { state, renew } = databaseLease(scheduler, () => 100)
    state.answer = (call) => call < 1
    let lost = 0
    const keeper = new LeaseKeeper({ leaseMs: LEASE, renew, scheduler, onLost: () => lost++ }, 0)
    await scheduler.advanceTo(5 * LEASE)
    expect(state.asks).toEqual([30_000, 60_000])
    expect([keeper.lost, lost]).toEqual([true, 1])

    const stopped = databaseLease(scheduler, () => 100)
    const other = new LeaseKeeper({ leaseMs: LEASE, renew: stopped.renew, scheduler }, scheduler.now())
    other.stop()
    await scheduler.advanceTo(10 * LEASE)
    expect(stopped.state.asks).toEqual([])
  })
})

/** A key whose checks running or waiting at once are limited (a login from an address, an address). */
export interface GateKey {
  readonly key: string
  readonly limit: number
}

/**
 * Bounds the slow password hashes of one server: at most `maxConcurrent` run at once (a scrypt check holds
 * a thread of the pool that file reads also need, and 128 MiB), the others wait in line, and a key that
 * already has its limit running or waiting is refused at once instead of queueing. So a flood from one
 * address holds a couple of places in line, not the whole line; `priority` attempts (a login known at its
 * address) are served before the others.
 */
export class PasswordCheckGate {
  readonly #maxConcurrent: number
  #running = 0
  readonly #waiting: { priority: boolean; start: () => void }[] = []
  readonly #held = new Map<string, number>()

  constructor(maxConcurrent: number) {
    this.#maxConcurrent = Math.max(1, maxConcurrent)
  }

  /** True when one of the keys has its limit of checks running or waiting. */
  isFull(keys: readonly GateKey[]): boolean {
    return keys.some((k) => (this.#held.get(k.key) ?? 0) >= k.limit)
  }

  /** Runs `check` in its turn; resolves `null` without running it when a key is full. */
  async run<T>(keys: readonly GateKey[], priority: boolean, check: () => Promise<T>): Promise<T | null> {
    if (this.isFull(keys)) return null
    for (const k of keys) this.#held.set(k.key, (this.#held.get(k.key) ?? 0) + 1)
    try {
      await this.#turn(priority)
      try {
        return await check()
      } finally {
        this.#running--
        this.#next()
      }
    } finally {
      for (const k of keys) {
        const left = (this.#held.get(k.key) ?? 1) - 1
        if (left > 0) this.#held.set(k.key, left)
        else this.#held.delete(k.key)
      }
    }
  }

  #turn(priority: boolean): Promise<void> {
    if (this.#running < this.#maxConcurrent) {
      this.#running++
      return Promise.resolve()
    }
    return new Promise((resolve) => {
      const entry = {
        priority,
        start: () => {
          this.#running++
          resolve()
        },
      }
      const firstOrdinary = priority ? this.#waiting.findIndex((w) => !w.priority) : -1
      if (firstOrdinary >= 0) this.#waiting.splice(firstOrdinary, 0, entry)
      else this.#waiting.push(entry)
    })
  }

  #next(): void {
    if (this.#running < this.#maxConcurrent) this.#waiting.shift()?.start()
  }
}

/**
 * At most `limit` tasks at a time; the others wait in arrival order. In-process conversions are CPU work on
 * the event loop: running more of them at once than there are cores makes none finish sooner, and each
 * holds its parsed font and page tree in memory meanwhile.
 */
export class ConcurrencyLimit {
  readonly #limit: number
  readonly #waiting: (() => void)[] = []
  #running = 0

  constructor(limit: number) {
    this.#limit = Math.max(1, Math.floor(limit))
  }

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.#running >= this.#limit) await new Promise<void>((resolve) => this.#waiting.push(resolve))
    else this.#running++
    try {
      return await task()
    } finally {
      // The slot passes straight to the next waiter, so #running never dips and a newcomer cannot jump the queue.
      const next = this.#waiting.shift()
      if (next) next()
      else this.#running--
    }
  }
}

/**
 * Watermarked PDFs recently served, by source fingerprint and rendered text. The text changes at most once
 * a minute (`[hour_now]`), so repeated reads of a document within the minute reuse the drawing work; the
 * source is still read and hashed on every read (the key is its verified digest).
 *
 * An entry not used for `idleMs` (a minute by default) goes: once its minute has passed its text can never
 * be asked again, so keeping it would only grow the process for nothing. Within that, least recently used
 * entries go first once the byte budget is spent. The cache therefore holds about a minute of distinct
 * reads, and stops growing once a server has run that long.
 */
export class WatermarkCache {
  readonly #budget: number
  readonly #idleMs: number
  readonly #now: () => number
  /** In order of last use, oldest first. */
  readonly #entries = new Map<string, { pdf: Uint8Array; usedAt: number }>()
  #bytes = 0

  constructor(budgetBytes = 32 * 1024 * 1024, options: { idleMs?: number; now?: () => number } = {}) {
    this.#budget = budgetBytes
    this.#idleMs = options.idleMs ?? 60_000
    this.#now = options.now ?? Date.now
  }

  /** The cached output for a source digest and text, marked as recently used. */
  get(fingerprint: string, text: string): Uint8Array | undefined {
    const now = this.#now()
    this.#dropIdle(now)
    const key = `${fingerprint}\n${text}`
    const hit = this.#entries.get(key)
    if (!hit) return undefined
    this.#entries.delete(key)
    this.#entries.set(key, { pdf: hit.pdf, usedAt: now })
    return hit.pdf
  }

  /** Keeps an output unless it alone exceeds a quarter of the budget. */
  set(fingerprint: string, text: string, pdf: Uint8Array): void {
    const now = this.#now()
    this.#dropIdle(now)
    if (pdf.length > this.#budget / 4) return
    const key = `${fingerprint}\n${text}`
    const previous = this.#entries.get(key)
    if (previous) {
      this.#bytes -= previous.pdf.length
      this.#entries.delete(key)
    }
    this.#entries.set(key, { pdf, usedAt: now })
    this.#bytes += pdf.length
    for (const [oldest, entry] of this.#entries) {
      if (this.#bytes <= this.#budget) break
      this.#remove(oldest, entry.pdf)
    }
  }

  /** Bytes held. */
  get size(): number {
    return this.#bytes
  }

  #dropIdle(now: number): void {
    for (const [oldest, entry] of this.#entries) {
      if (now - entry.usedAt < this.#idleMs) break
      this.#remove(oldest, entry.pdf)
    }
  }

  #remove(key: string, pdf: Uint8Array): void {
    this.#entries.delete(key)
    this.#bytes -= pdf.length
  }
}

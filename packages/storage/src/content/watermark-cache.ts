/**
 * Watermarked PDFs recently served, by source fingerprint and rendered text. The text changes at most once
 * a minute (`[hour_now]`), so repeated reads of a document within the minute reuse the drawing work; the
 * source is still read and hashed on every read (the key is its verified digest). Least recently used
 * entries go first once the byte budget is spent.
 */
export class WatermarkCache {
  readonly #budget: number
  readonly #entries = new Map<string, Uint8Array>()
  #bytes = 0

  constructor(budgetBytes = 64 * 1024 * 1024) {
    this.#budget = budgetBytes
  }

  /** The cached output for a source digest and text, marked as recently used. */
  get(fingerprint: string, text: string): Uint8Array | undefined {
    const key = `${fingerprint}\n${text}`
    const hit = this.#entries.get(key)
    if (hit) {
      this.#entries.delete(key)
      this.#entries.set(key, hit)
    }
    return hit
  }

  /** Keeps an output unless it alone exceeds a quarter of the budget. */
  set(fingerprint: string, text: string, pdf: Uint8Array): void {
    if (pdf.length > this.#budget / 4) return
    const key = `${fingerprint}\n${text}`
    const previous = this.#entries.get(key)
    if (previous) {
      this.#bytes -= previous.length
      this.#entries.delete(key)
    }
    this.#entries.set(key, pdf)
    this.#bytes += pdf.length
    for (const [oldest, value] of this.#entries) {
      if (this.#bytes <= this.#budget) break
      this.#entries.delete(oldest)
      this.#bytes -= value.length
    }
  }

  /** Bytes held. */
  get size(): number {
    return this.#bytes
  }
}

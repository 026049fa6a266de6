import type {
  FullTextCandidate,
  FullTextFileRef,
  FullTextIndex,
  FullTextIndexedText,
  FullTextIndexQuery,
} from '@mailroom/core'

/** Lower case, accents folded, letters and digits only: how this index compares words. */
function wordsOf(text: string): string[] {
  return (
    text
      .normalize('NFD')
      .replace(/\p{M}/gu, '')
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu) ?? []
  )
}

/**
 * A full-text index in memory, standing for an external search engine in tests: a file matches when its text
 * holds every word asked (accents and case folded, no stemming), ranked by how often they occur. It keeps the
 * searches it answered, so a test can tell it was asked.
 */
export class MemoryFullTextIndex implements FullTextIndex {
  readonly #texts = new Map<string, FullTextIndexedText>()
  /** The words of every search it answered, in order. */
  readonly searches: string[] = []

  async put(text: FullTextIndexedText): Promise<void> {
    this.#texts.set(`${text.fileKind}:${text.fileId}`, text)
  }

  async remove(file: FullTextFileRef): Promise<void> {
    this.#texts.delete(`${file.fileKind}:${file.fileId}`)
  }

  /** The files it holds, as `kind:id`. */
  files(): string[] {
    return [...this.#texts.keys()].sort()
  }

  async search(query: FullTextIndexQuery): Promise<readonly FullTextCandidate[]> {
    this.searches.push(query.words)
    const asked = wordsOf(query.words)
    if (asked.length === 0) return []
    const found: FullTextCandidate[] = []
    for (const text of this.#texts.values()) {
      const words = wordsOf(text.text)
      const counts = asked.map((word) => words.filter((w) => w === word).length)
      if (counts.some((n) => n === 0)) continue
      const first = words.indexOf(asked[0] as string)
      const excerpt = words
        .slice(Math.max(0, first - 5), first + 6)
        .map((w) => (asked.includes(w) ? `**${w}**` : w))
        .join(' ')
      found.push({
        fileKind: text.fileKind,
        fileId: text.fileId,
        resId: text.resId,
        rank: counts.reduce((a, b) => a + b, 0),
        excerpt,
      })
    }
    return found.sort((a, b) => b.rank - a.rank || a.resId - b.resId).slice(0, query.limit)
  }
}

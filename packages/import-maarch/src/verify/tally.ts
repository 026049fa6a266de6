/** What `mailroom import maarch --verify` compares, in the order it reports them. */
export const VERIFY_KINDS = [
  'users',
  'groups',
  'entities',
  'contacts',
  'records',
  'files',
  'attachments',
  'notes',
  'links',
  'history',
  'chronoCounters',
] as const

/** One kind of thing the verification compares (users, records, files, history rows…). */
export type VerifyKind = (typeof VERIFY_KINDS)[number]

/** One difference between the source and the target: which item, what differs, each side's value. */
export interface VerifyDifference {
  readonly kind: VerifyKind
  /** The item: a user id and login, a record id, `record 12 original`, `attachment 40`, a counter… */
  readonly id: string
  readonly what: string
  readonly source?: string | null
  readonly target?: string | null
}

/** How many items of one kind each side has, and how many differences were found. */
export interface VerifyKindCounts {
  readonly kind: VerifyKind
  readonly source: number
  readonly target: number
  readonly differences: number
}

/** A value as the report prints it: dates in ISO 8601, objects as JSON, nothing as null. */
export function shown(value: unknown): string | null {
  if (value === null || value === undefined) return null
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? String(value) : value.toISOString()
  if (typeof value === 'object') return JSON.stringify(value)
  return String(value)
}

/** Counts per kind and the differences, handed on as they are found (nothing per item stays in memory). */
export class Tally {
  readonly #counts = new Map<VerifyKind, { source: number; target: number; differences: number }>(
    VERIFY_KINDS.map((kind) => [kind, { source: 0, target: 0, differences: 0 }]),
  )
  readonly #onDifference: (difference: VerifyDifference) => void

  constructor(onDifference: (difference: VerifyDifference) => void) {
    this.#onDifference = onDifference
  }

  count(kind: VerifyKind, source: number, target: number): void {
    const counts = this.#counts.get(kind)!
    counts.source += source
    counts.target += target
  }

  differ(difference: VerifyDifference): void {
    this.#counts.get(difference.kind)!.differences++
    this.#onDifference(difference)
  }

  /**
   * Items keyed alike on both sides: counted, each present on one side only reported, and each field of the
   * others compared (the values as `shown` prints them).
   */
  compareKeyed(
    kind: VerifyKind,
    source: ReadonlyMap<string, Record<string, unknown>>,
    target: ReadonlyMap<string, Record<string, unknown>>,
  ): void {
    this.count(kind, source.size, target.size)
    for (const [id, expected] of source) {
      const found = target.get(id)
      if (found === undefined) this.differ({ kind, id, what: 'missing in the target' })
      else this.compareFields(kind, id, expected, found)
    }
    for (const id of target.keys())
      if (!source.has(id)) this.differ({ kind, id, what: 'in the target only, not in the source' })
  }

  /** Each field of `source` against the same field of `target`. */
  compareFields(kind: VerifyKind, id: string, source: Record<string, unknown>, target: Record<string, unknown>): void {
    for (const [field, value] of Object.entries(source)) {
      const a = shown(value)
      const b = shown(target[field])
      if (a !== b) this.differ({ kind, id, what: `${field} differs`, source: a, target: b })
    }
  }

  /**
   * Items without a shared id (a record's history rows, its notes), as multisets of their printed form: each
   * one more often on one side than on the other is reported once per missing or extra copy.
   */
  compareMultisets(kind: VerifyKind, owner: string, source: readonly string[], target: readonly string[]): void {
    this.count(kind, source.length, target.length)
    const left = new Map<string, number>()
    for (const item of source) left.set(item, (left.get(item) ?? 0) + 1)
    for (const item of target) left.set(item, (left.get(item) ?? 0) - 1)
    for (const [item, n] of left) {
      for (let i = 0; i < n; i++) this.differ({ kind, id: owner, what: 'missing in the target', source: item })
      for (let i = 0; i < -n; i++)
        this.differ({ kind, id: owner, what: 'in the target only, not in the source', target: item })
    }
  }

  counts(): VerifyKindCounts[] {
    return VERIFY_KINDS.map((kind) => ({ kind, ...this.#counts.get(kind)! }))
  }
}

import { describe, expect, it } from 'vitest'
import { lockable } from './change-status.js'

describe('lockable', () => {
  it('leaves out the chronos PostgreSQL cannot hold, which then match no record', () => {
    expect(
      lockable({ kind: 'chrono', identifiers: ['MAARCH/2026A/1', 'a\u0000b', 'x\ud800', '\udc00y', 'é😀'] }),
    ).toEqual({ kind: 'chrono', identifiers: ['MAARCH/2026A/1', 'é😀'] })
  })

  it('keeps record ids as they are', () => {
    expect(lockable({ kind: 'resId', identifiers: [3, 1] })).toEqual({ kind: 'resId', identifiers: [3, 1] })
  })
})

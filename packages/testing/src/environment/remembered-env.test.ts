import { afterEach, describe, expect, it } from 'vitest'
import { rememberEnv } from './remembered-env.js'

describe('rememberEnv', () => {
  afterEach(() => {
    delete process.env.MAILROOM_REMEMBERED_A
    delete process.env.MAILROOM_REMEMBERED_B
  })

  it('puts back a value that was set and removes one that was not', () => {
    process.env.MAILROOM_REMEMBERED_A = 'before'
    const restore = rememberEnv('MAILROOM_REMEMBERED_A', 'MAILROOM_REMEMBERED_B')
    process.env.MAILROOM_REMEMBERED_A = 'during'
    process.env.MAILROOM_REMEMBERED_B = 'during'
    restore()
    expect(process.env.MAILROOM_REMEMBERED_A).toBe('before')
    expect('MAILROOM_REMEMBERED_B' in process.env).toBe(false)
  })
})

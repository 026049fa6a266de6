import { describe, expect, it } from 'vitest'
import { PasswordCheckGate } from './password-check-gate.js'

/** A check that finishes when the test says so. */
function pendingCheck(log: string[], name: string) {
  let finish = () => {}
  const done = new Promise<void>((resolve) => {
    finish = resolve
  })
  return {
    finish: () => finish(),
    run: async () => {
      log.push(`start ${name}`)
      await done
      return name
    },
  }
}

const tick = () => new Promise((resolve) => setImmediate(resolve))

describe('PasswordCheckGate', () => {
  it('runs at most maxConcurrent checks, the others in line, known logins first', async () => {
    const gate = new PasswordCheckGate(2)
    const log: string[] = []
    const checks = ['a', 'b', 'c', 'd', 'known'].map((name) => pendingCheck(log, name))
    const results = checks.map((c, i) => gate.run([{ key: `k${i}`, limit: 1 }], i === 4, c.run))
    await tick()
    expect(log).toEqual(['start a', 'start b'])
    checks[0]!.finish()
    await tick()
    expect(log).toEqual(['start a', 'start b', 'start known'])
    for (const c of checks) c.finish()
    expect(await Promise.all(results)).toEqual(['a', 'b', 'c', 'd', 'known'])
    expect(log).toEqual(['start a', 'start b', 'start known', 'start c', 'start d'])
  })

  it('refuses at once a key that has its limit running or waiting, and frees it after', async () => {
    const gate = new PasswordCheckGate(1)
    const log: string[] = []
    const first = pendingCheck(log, 'first')
    const key = [{ key: 'pair:10.0.0.1 ddur', limit: 2 }]
    const running = gate.run(key, false, first.run)
    const waiting = gate.run(key, false, async () => 'second')
    expect(gate.isFull(key)).toBe(true)
    expect(await gate.run(key, false, async () => 'third')).toBeNull()
    // Another key still gets in line.
    const elsewhere = gate.run([{ key: 'pair:10.0.0.2 ddur', limit: 2 }], false, async () => 'elsewhere')
    first.finish()
    expect(await Promise.all([running, waiting, elsewhere])).toEqual(['first', 'second', 'elsewhere'])
    expect(gate.isFull(key)).toBe(false)
  })

  it('frees the place of a check that fails', async () => {
    const gate = new PasswordCheckGate(1)
    const key = [{ key: 'k', limit: 1 }]
    await expect(gate.run(key, false, async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom')
    expect(await gate.run(key, false, async () => 'next')).toBe('next')
  })
})

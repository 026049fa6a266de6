import { execFile } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'

const BIN = fileURLToPath(new URL('../../../node_modules/.bin/tsc', import.meta.url))
const CONFIG = fileURLToPath(new URL('../test/types/tsconfig.browser.json', import.meta.url))

describe('SDK byte results in a browser bundle (type test)', () => {
  it('go into new Blob([bytes]), crypto.subtle and Response without a cast under lib "dom"', async () => {
    const result = await promisify(execFile)(BIN, ['-p', CONFIG]).then(
      () => '',
      (error: { stdout?: string }) => error.stdout ?? String(error),
    )
    expect(result).toBe('')
  })
})

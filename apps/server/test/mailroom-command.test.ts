import { existsSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { rememberEnv } from '@mailroom/testing'
import { afterEach, describe, expect, it } from 'vitest'
import { mailroomCommand } from './mailroom-command.js'

const serverDir = join(dirname(fileURLToPath(import.meta.url)), '..')

describe('how the tests start mailroom', () => {
  const restore = rememberEnv('MAILROOM_TEST_BUILT_CLI')
  afterEach(() => restore())

  it('runs the sources through tsx unless npm test says it built the command', () => {
    delete process.env.MAILROOM_TEST_BUILT_CLI
    expect(mailroomCommand('user', 'list')).toEqual([
      '--conditions=source',
      '--no-deprecation',
      '--import',
      'tsx',
      join(serverDir, 'src/main.ts'),
      'user',
      'list',
    ])
  })

  it('runs the built command when npm test built it, and the sources where no build is there', () => {
    process.env.MAILROOM_TEST_BUILT_CLI = '1'
    const built = join(serverDir, 'dist/main.js')
    expect(mailroomCommand('user', 'list')).toEqual(
      existsSync(built) ? [built, 'user', 'list'] : expect.arrayContaining([join(serverDir, 'src/main.ts')]),
    )
  })
})

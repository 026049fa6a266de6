import { execFileSync } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
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

describe('mailroom keeps the compiled code of its modules', () => {
  const [major] = process.versions.node.split('.').map(Number)
  // Node 22.1 and later have the compile cache; the supported releases (22.12, 24, 26) all do.
  it.runIf((major ?? 0) >= 22)("in node-compile-cache of the OS's temporary folder, for the next command", () => {
    const temporary = mkdtempSync(join(tmpdir(), 'mailroom-compile-cache-'))
    try {
      const { NODE_COMPILE_CACHE: _chosen, ...env } = process.env
      const version = execFileSync(process.execPath, mailroomCommand('--version'), {
        env: { ...env, TMPDIR: temporary },
        encoding: 'utf8',
      })
      expect(version.trim()).toMatch(/^\d+\.\d+\.\d+/)
      expect(readdirSync(temporary)).toContain('node-compile-cache')
      expect(readdirSync(join(temporary, 'node-compile-cache'), { recursive: true }).length).toBeGreaterThan(0)
    } finally {
      rmSync(temporary, { recursive: true, force: true })
    }
  })
})

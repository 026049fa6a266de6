import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs'
import { request } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fail, type UserSummary } from '@mailroom/core'
import type { Mailroom } from '@mailroom/mailroom'
import { pino } from 'pino'
import { afterEach, describe, expect, it } from 'vitest'
import { callOperatorChannel, openOperatorChannel, operatorChannelFiles } from './operator-channel.js'

const dirs: string[] = []
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})
const dataDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'mr-op-'))
  dirs.push(dir)
  return dir
}

/** A Mailroom whose users are a map: enough for the operations these tests send. */
function mailroomOfUsers(users: Map<string, boolean>): Mailroom {
  const summary = (login: string): UserSummary => ({
    id: 1,
    login,
    firstname: null,
    lastname: null,
    mail: null,
    mode: 'standard',
    enabled: users.get(login)!,
    groups: [],
    primaryEntity: null,
  })
  return {
    organisation: {
      async setEnabled(login: string, enabled: boolean) {
        if (!users.has(login)) fail('USER_NOT_FOUND', { login })
        users.set(login, enabled)
        return summary(login)
      },
    },
  } as unknown as Mailroom
}

/** A raw request to the socket, as another local program could send it. */
function post(socket: string, path: string, authorization: string, body: unknown): Promise<number> {
  return new Promise((resolve, reject) => {
    const outgoing = request({ socketPath: socket, method: 'POST', path, headers: { authorization } }, (incoming) => {
      incoming.resume()
      resolve(incoming.statusCode ?? 0)
    })
    outgoing.on('error', reject)
    outgoing.end(JSON.stringify(body))
  })
}

const author = { userId: null, name: 'cli:ops' }

describe('the operator socket', () => {
  it('carries an operation to the Mailroom it serves and its refusal back, owner-only, gone once closed', async () => {
    const dir = dataDir()
    const users = new Map([['bblier', true]])
    const channel = await openOperatorChannel(dir, mailroomOfUsers(users), pino({ level: 'silent' }))
    if (channel === null) throw new Error('a short data directory gets a socket')
    try {
      expect(statSync(channel.socket).mode & 0o777).toBe(0o600)
      expect(statSync(operatorChannelFiles(dir).token).mode & 0o777).toBe(0o600)

      const done = await callOperatorChannel(dir, channel.socket, 'setEnabled', {
        login: 'bblier',
        enabled: false,
        author,
      })
      expect(done).toMatchObject({ done: true, result: { login: 'bblier', enabled: false } })
      expect(users.get('bblier')).toBe(false)

      const refused = await callOperatorChannel(dir, channel.socket, 'setEnabled', {
        login: 'ghost',
        enabled: false,
        author,
      })
      expect(refused).toEqual({ done: false, message: 'No user "ghost"' })
    } finally {
      await channel.close()
    }
    expect(existsSync(channel.socket)).toBe(false)
    expect(existsSync(operatorChannelFiles(dir).token)).toBe(false)
  })

  it('refuses a caller without the token, and an operation it does not know, changing nothing', async () => {
    const dir = dataDir()
    const users = new Map([['bblier', true]])
    const channel = await openOperatorChannel(dir, mailroomOfUsers(users), pino({ level: 'silent' }))
    if (channel === null) throw new Error('a short data directory gets a socket')
    try {
      const change = { login: 'bblier', enabled: false, author }
      expect(await post(channel.socket, '/operations/setEnabled', 'Bearer guessed', change)).toBe(401)
      expect(await post(channel.socket, '/operations/setEnabled', '', change)).toBe(401)
      expect(await post(channel.socket, '/operations/dropDatabase', 'Bearer guessed', {})).toBe(404)
      expect(users.get('bblier')).toBe(true)
    } finally {
      await channel.close()
    }
  })

  it('is not opened where the data directory is too deep for a Unix socket', async () => {
    const deep = join(dataDir(), 'd'.repeat(120))
    const channel = await openOperatorChannel(deep, mailroomOfUsers(new Map()), pino({ level: 'silent' }))
    expect(channel).toBeNull()
  })
})

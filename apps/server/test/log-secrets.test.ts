import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { makePdf } from '../../../packages/testing/src/fixtures/files/index.js'
import { basicAuth, type ServerProcess, startServerProcess } from './process-server.js'

/**
 * A real `mailroom serve` at the most verbose level, used with the demo passwords (Basic and bearer),
 * a refresh, a failed sign-in and a record with a file: nothing secret may reach its logs.
 */
describe('the logs of a run', () => {
  let dataDir: string
  let server: ServerProcess
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'mailroom-log-secrets-'))
    server = await startServerProcess({
      MAILROOM_DATA_DIR: dataDir,
      MAILROOM_DEMO: '1',
      LOG_LEVEL: 'trace',
      MAILROOM_LOG_FORMAT: 'json',
    })
  })
  afterAll(async () => {
    server?.kill('SIGTERM')
    await server?.exited
    await rm(dataDir, { recursive: true, force: true })
  })

  it('hold request lines with id, route template, status, duration and user, and no password, token or file', async () => {
    const wrongPassword = 'not-the-password-7Qx'
    const file = Buffer.from(makePdf({ pages: 3 })).toString('base64')
    const basic = await fetch(`${server.url}/rest/entities/PJS`, {
      headers: { ...basicAuth('bbain'), 'x-request-id': 'basic-call' },
    })
    expect(basic.status).toBe(200)
    const signIn = await fetch(`${server.url}/rest/authenticate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ login: 'cchaplin', password: 'maarch' }),
    })
    const token = signIn.headers.get('token')!
    const refreshToken = signIn.headers.get('refresh-token')!
    expect(token.length).toBeGreaterThan(20)
    const refreshed = await fetch(
      `${server.url}/rest/authenticate/token?refreshToken=${encodeURIComponent(refreshToken)}`,
    )
    const newToken = ((await refreshed.json()) as { token: string }).token
    const created = await fetch(`${server.url}/rest/resources`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${newToken}`,
        'content-type': 'application/json',
        'x-request-id': 'create-call',
      },
      body: JSON.stringify({
        modelId: 1,
        status: 'NEW',
        subject: 'Log check',
        destination: 6,
        encodedFile: file,
        format: 'pdf',
      }),
    })
    expect(created.status).toBe(200)
    const { resId } = (await created.json()) as { resId: number }
    expect(
      (await fetch(`${server.url}/rest/resources/${resId}/content`, { headers: { authorization: `Bearer ${token}` } }))
        .status,
    ).toBe(200)
    const refused = await fetch(`${server.url}/rest/authenticate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ login: 'superadmin', password: wrongPassword }),
    })
    expect(refused.status).toBe(401)
    const malformed = await fetch(`${server.url}/rest/resources`, {
      method: 'POST',
      headers: { ...basicAuth('superadmin'), 'content-type': 'application/json' },
      body: `{"encodedFile": "${file.slice(0, 200)}", "password": "maarch"`,
    })
    expect(malformed.status).toBe(400)
    await new Promise((resolve) => setTimeout(resolve, 200))

    const logs = server.output()
    const lines = logs
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as Record<string, unknown>)
    expect(lines.find((line) => line.requestId === 'basic-call' && line.msg === 'request')).toMatchObject({
      method: 'GET',
      route: '/rest/entities/:id',
      status: 200,
      user: 'bbain',
    })
    expect(lines.find((line) => line.requestId === 'create-call' && line.msg === 'request')).toMatchObject({
      method: 'POST',
      route: '/rest/resources',
      status: 200,
      user: 'cchaplin',
    })
    expect(
      lines
        .filter((line) => line.msg === 'request')
        .every((line) => typeof line.durationMs === 'number' && typeof line.requestId === 'string'),
    ).toBe(true)

    const secrets = {
      'demo password maarch': /\bmaarch\b/,
      'demo password superadmin (other than as a login)': /(?<!"(?:user|login)":)"superadmin"/,
      'wrong password': wrongPassword,
      'Basic credentials': Buffer.from('bbain:maarch').toString('base64'),
      token: token,
      'refreshed token': newToken,
      'refresh token': refreshToken,
      'file, start': file.slice(0, 60),
      'file, middle': file.slice(file.length / 2, file.length / 2 + 60),
    }
    for (const [what, secret] of Object.entries(secrets)) {
      const found = typeof secret === 'string' ? logs.includes(secret) : secret.test(logs)
      expect(found, `${what} found in the logs:\n${logs}`).toBe(false)
    }
  })
})

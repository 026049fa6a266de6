import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestServer, type TestServer } from '../../../testing/src/index.js'

let server: TestServer
let dir: string

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'console-'))
  mkdirSync(join(dir, 'assets'))
  writeFileSync(join(dir, 'index.html'), '<!doctype html><title>Mailroom</title>')
  writeFileSync(join(dir, 'assets', 'main-abc123.js'), 'console.log(1)')
  writeFileSync(join(tmpdir(), 'outside-console.txt'), 'secret')
  server = await startTestServer({ http: { consoleDir: dir } })
})

afterAll(async () => {
  await server?.close()
  rmSync(dir, { recursive: true, force: true })
})

describe('the console at /console', () => {
  it('redirects /console to /console/ so relative asset URLs resolve', async () => {
    const response = await fetch(`${server.baseUrl}/console?x=1`, { redirect: 'manual' })
    expect(response.status).toBe(301)
    expect(response.headers.get('location')).toBe('/console/?x=1')
  })

  it('serves index.html, never cached, with a policy that allows only this origin', async () => {
    const response = await server.call('GET', '/console/', { auth: null })
    expect(response.status).toBe(200)
    expect(response.text).toContain('<title>Mailroom</title>')
    expect(response.headers.get('content-type')).toMatch(/text\/html/)
    expect(response.headers.get('cache-control')).toBe('no-cache')
    expect(response.headers.get('content-security-policy')).toMatch(/default-src 'self'.*connect-src 'self'/)
    expect(response.headers.get('x-content-type-options')).toBe('nosniff')
  })

  it('serves hashed assets as immutable', async () => {
    const response = await server.call('GET', '/console/assets/main-abc123.js', { auth: null })
    expect(response.status).toBe(200)
    expect(response.text).toBe('console.log(1)')
    expect(response.headers.get('cache-control')).toMatch(/max-age=31536000.*immutable/)
  })

  it('answers the JSON 404 for a missing file or a path leaving the folder, and leaves other methods alone', async () => {
    for (const path of [
      '/console/assets/missing.js',
      '/console/..%2Foutside-console.txt',
      '/console/%2e%2e/outside-console.txt',
    ]) {
      const response = await server.call('GET', path, { auth: null })
      expect(response.status, path).toBe(404)
      expect(response.text).not.toContain('secret')
    }
    const post = await server.call('POST', '/console/', { auth: null, body: {} })
    expect(post.status).toBe(404)
    expect(post.json).toEqual({ errors: expect.any(String) })
  })
})

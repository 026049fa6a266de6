import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { request } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestServer, type TestServer } from '../../../testing/src/index.js'

let server: TestServer
let root: string

/** A GET with the path sent exactly as written (fetch would resolve `..` before sending). */
function rawGet(path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(`${server.baseUrl}/`, { path, method: 'GET' }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (chunk: Buffer) => chunks.push(chunk))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }))
    })
    req.on('error', reject)
    req.end()
  })
}

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'web-client-'))
  const client = join(root, 'dist')
  mkdirSync(join(client, 'assets'), { recursive: true })
  writeFileSync(join(client, 'index.html'), '<!doctype html><title>MaarchCourrier</title>')
  writeFileSync(join(client, 'main-es2015.3b8c1e009e75a85ed677.js'), 'console.log(1)')
  writeFileSync(join(client, 'assets', 'logo.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>')
  writeFileSync(join(root, 'outside.txt'), 'secret outside the folder')
  // Links that point out of the folder, to a file and to a folder.
  symlinkSync(join(root, 'outside.txt'), join(client, 'linked.txt'))
  symlinkSync(root, join(client, 'linked-folder'))
  server = await startTestServer({ http: { webClient: { clientDir: client } } })
})

afterAll(async () => {
  await server?.close()
  rmSync(root, { recursive: true, force: true })
})

describe("Maarch's web client at /dist", () => {
  it("redirects /dist to /dist/, where index.html is served, never cached, under the client's policy", async () => {
    const redirect = await fetch(`${server.baseUrl}/dist?x=1`, { redirect: 'manual' })
    expect([redirect.status, redirect.headers.get('location')]).toEqual([301, '/dist/?x=1'])
    for (const path of ['/dist/', '/dist/index.html']) {
      const page = await server.call('GET', path, { auth: null })
      expect(page.status).toBe(200)
      expect(page.text).toContain('<title>MaarchCourrier</title>')
      expect(page.headers.get('content-type')).toMatch(/text\/html/)
      expect(page.headers.get('cache-control')).toBe('no-cache')
      const policy = page.headers.get('content-security-policy')
      expect(policy).toContain("script-src 'self' 'unsafe-eval'")
      expect(policy).toContain("connect-src 'self'")
      expect(policy).toContain("object-src 'none'")
      expect(policy).not.toMatch(/script-src[^;]*'unsafe-inline'/)
    }
  })

  it("keeps the console's policy distinct: the API's answers carry neither", async () => {
    const api = await server.call('GET', '/rest/authenticationInformations', { auth: null })
    expect(api.headers.get('content-security-policy')).toBeNull()
  })

  it('serves hashed files as immutable, others revalidated, HEAD without a body', async () => {
    const hashed = await server.call('GET', '/dist/main-es2015.3b8c1e009e75a85ed677.js', { auth: null })
    expect([hashed.status, hashed.text]).toEqual([200, 'console.log(1)'])
    expect(hashed.headers.get('cache-control')).toMatch(/max-age=31536000.*immutable/)
    const asset = await server.call('GET', '/dist/assets/logo.svg', { auth: null })
    expect(asset.headers.get('content-type')).toBe('image/svg+xml')
    expect(asset.headers.get('cache-control')).toBe('no-cache')
    const head = await server.call('HEAD', '/dist/index.html', { auth: null })
    expect([head.status, head.text]).toEqual([200, ''])
  })

  it('serves nothing outside its folder: .., encoded slashes and dots, backslashes, NULs, links pointing out', async () => {
    for (const path of [
      '/dist/../outside.txt',
      '/dist/assets/../../outside.txt',
      '/dist/..%2Foutside.txt',
      '/dist/%2e%2e/outside.txt',
      '/dist/%2e%2e%2foutside.txt',
      '/dist/..%5Coutside.txt',
      '/dist/%252e%252e%252foutside.txt',
      '/dist/linked.txt',
      '/dist/linked-folder/outside.txt',
      '/dist/assets',
      '/dist/missing.js',
      '/dist/%E0%A4%A',
      `/dist/${encodeURIComponent(join(root, 'outside.txt'))}`,
    ]) {
      const answer = await rawGet(path)
      expect(answer.status, path).toBeGreaterThanOrEqual(400)
      expect(answer.status, path).toBeLessThan(500)
      expect(answer.body, path).not.toContain('secret')
    }
    expect((await rawGet('/dist/index.html%00')).status).toBe(400)
  })

  it('leaves other methods to the API, which answers them as JSON', async () => {
    const post = await server.call('POST', '/dist/index.html', { auth: null, body: {} })
    expect(post.status).toBe(404)
    expect(post.json).toEqual({ errors: 'Route not found' })
  })
})

describe('without MAILROOM_WEB_CLIENT_DIR', () => {
  it('serves no client: /dist/ is an unknown path', async () => {
    const bare = await startTestServer()
    try {
      const page = await bare.call('GET', '/dist/', { auth: null })
      expect(page.status).toBe(404)
      expect(page.json).toEqual({ errors: 'Route not found' })
    } finally {
      await bare.close()
    }
  })
})

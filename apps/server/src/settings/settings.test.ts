import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Writable } from 'node:stream'
import { fileURLToPath } from 'node:url'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { copyEndS3 } from '../commands/docserver-copy.js'
import { loadConfig } from '../config.js'
import { ConfigError } from '../config-error.js'
import { loadContentSettings, loadConversionSettings } from '../content-settings.js'
import { directorySyncSettings, syncMappingFile } from '../directory-settings.js'
import { createLogger, logFormat } from '../logging.js'
import { choiceList, type Env, integerRange } from './read-setting.js'
import { SETTINGS_TABLE_BEGIN, SETTINGS_TABLE_END, settingsHelp, withSettingsTables } from './render-settings.js'
import { SETTINGS } from './server-settings.js'
import { defaultWord, type NamedSetting } from './setting-declaration.js'

const root = fileURLToPath(new URL('../../../../', import.meta.url))
const names = SETTINGS.map((s) => s.name)
const declarationsFile = join(root, 'apps/server/src/settings/server-settings.ts')
const readerFile = join(root, 'apps/server/src/settings/read-setting.ts')
/** The settings this server's parser reads (MAILROOM_SOFFICE is read by @mailroom/documents itself). */
const parsedHere = SETTINGS.filter((s) => s.parsedBy === undefined)

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return entry.name === 'testing' ? [] : sources(path)
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : []
  })
}

/**
 * A configuration that turns every part on (PostgreSQL, object storage, the directory's search, OpenID Connect,
 * the console, both ends of a copy with keys of their own), so that each setting is read.
 */
const EVERYTHING: Env = {
  DATABASE_URL: 'postgres://mailroom@db.example/mailroom',
  MAILROOM_SECRET: 's'.repeat(24),
  MAILROOM_DOCSERVER_URL: 's3://mailroom-docs/prod',
  MAILROOM_CONSOLE: '1',
  MAILROOM_CONSOLE_DIR: '/srv/console',
  MAILROOM_CORS_ORIGINS: 'https://portal.example.org',
  MAILROOM_LDAP_URL: 'ldaps://directory.example',
  MAILROOM_LDAP_SEARCH_BASE: 'ou=people,dc=example,dc=org',
  MAILROOM_LDAP_BIND_DN: 'cn=mailroom,dc=example,dc=org',
  MAILROOM_LDAP_BIND_PASSWORD: 'directory-password',
  MAILROOM_OIDC_ISSUER: 'https://id.example/realms/staff',
  MAILROOM_OIDC_CLIENT_ID: 'mailroom',
  MAILROOM_COPY_TO_ACCESS_KEY_ID: 'to-key',
  MAILROOM_COPY_TO_SECRET_ACCESS_KEY: 'to-secret',
  MAILROOM_COPY_FROM_ACCESS_KEY_ID: 'from-key',
  MAILROOM_COPY_FROM_SECRET_ACCESS_KEY: 'from-secret',
}

/** What a setting must be given beside it to be valid: the headers' time lies within the whole request's. */
const COMPANIONS: Record<string, Env> = {
  MAILROOM_HEADERS_TIMEOUT_MS: { MAILROOM_RECEIVE_TIMEOUT_MS: String(2 ** 31 - 1) },
  MAILROOM_RECEIVE_TIMEOUT_MS: { MAILROOM_HEADERS_TIMEOUT_MS: '1' },
}

/** A stream that drops what the logger writes, as a pipe would take it (not a terminal). */
const silent = () => ({ stream: new Writable({ write: (_chunk, _encoding, done) => done() }) })

/** Everything the server, its commands and its logger read from an environment, as they read it. */
function loadAll(env: Env) {
  const config = loadConfig(env)
  return {
    config,
    content: loadContentSettings(env),
    conversion: loadConversionSettings(env),
    logFormat: logFormat(env, silent()),
    logLevel: createLogger(env, silent()).level,
    sync: directorySyncSettings(env),
    syncMapping: syncMappingFile(env),
    copy: { to: copyEndS3(config, 'to', undefined, env), from: copyEndS3(config, 'from', undefined, env) },
  }
}

function loadWith(s: NamedSetting, value: string | undefined) {
  const env: Record<string, string | undefined> = { ...EVERYTHING, ...COMPANIONS[s.name] }
  if (value === undefined) delete env[s.name]
  else env[s.name] = value
  return loadAll(env)
}

function refusal(run: () => unknown): string {
  try {
    run()
  } catch (error) {
    if (error instanceof ConfigError) return error.message
    throw error
  }
  return 'accepted'
}

describe('the declared settings', () => {
  it('are every MAILROOM_* variable the server, mailroom, storage and documents read, and nothing they do not', () => {
    const read = new Set<string>()
    const dirs = [
      'apps/server/src',
      'packages/mailroom/src',
      'packages/storage/src',
      'packages/object-store/src',
      'packages/documents/src',
    ]
    for (const file of dirs.flatMap((dir) => sources(join(root, dir)))) {
      if (file === declarationsFile) continue
      for (const [name] of readFileSync(file, 'utf8').matchAll(/\bMAILROOM_[A-Z0-9_]*[A-Z0-9]\b/g)) read.add(name)
    }
    read.delete('MAILROOM_PG_TYPES') // storage's type parsers, not a variable
    expect([...read].sort()).toEqual(names.filter((n) => n.startsWith('MAILROOM_')).sort())
  })

  it('are each read when the server, its commands and its logger start, and no other is', () => {
    const read = new Set<string>()
    const watched = new Proxy(EVERYTHING, {
      get(target, key) {
        if (typeof key === 'string') read.add(key)
        return Reflect.get(target, key)
      },
    })
    loadAll(watched)
    expect(parsedHere.map((s) => s.name).filter((name) => !read.has(name))).toEqual([])
    const fromFiles = SETTINGS.filter((s) => s.fromFile).map((s) => `${s.name}_FILE`)
    const undeclared = [...read].filter(
      (name) =>
        /^(MAILROOM_\w+|PORT|HOST|DATABASE_URL|LOG_LEVEL)$/.test(name) &&
        !names.includes(name) &&
        !fromFiles.includes(name),
    )
    expect(undeclared).toEqual([])
  })

  it('are read from the environment by settings/read-setting.ts alone', () => {
    const declared = new Set(names)
    const offences: string[] = []
    for (const file of sources(join(root, 'apps/server/src'))) {
      if (file === readerFile) continue
      const text = readFileSync(file, 'utf8')
      for (const [access, name] of text.matchAll(/\benv\??\.([A-Z][A-Z0-9_]*)\b/g))
        if (name?.startsWith('MAILROOM_') || declared.has(name ?? '')) offences.push(`${file}: ${access}`)
      for (const [access] of text.matchAll(/\benv\??\.?\[[^\]]*\]/g)) offences.push(`${file}: ${access}`)
    }
    expect(offences).toEqual([])
  })

  it('give no secret a default: every installation chooses its own', () => {
    expect(SETTINGS.filter((s) => s.secret && s.default !== undefined).map((s) => s.name)).toEqual([])
  })

  it('let every secret, and DATABASE_URL which carries a password, be read from the file <NAME>_FILE names', () => {
    // Orchestrators hand secrets over as files (a Kubernetes Secret's volume, podman and systemd credentials).
    const notFromFile = SETTINGS.filter((s) => (s.secret || s.name === 'DATABASE_URL') && !s.fromFile)
    expect(notFromFile.map((s) => s.name)).toEqual([])
    expect(SETTINGS.filter((s) => s.fromFile && s.kind !== 'text').map((s) => s.name)).toEqual([])
  })

  it('read a setting from its file as from the environment, the file winning, and refuse a file it cannot read', () => {
    const folder = mkdtempSync(join(tmpdir(), 'mailroom-settings-'))
    try {
      for (const s of parsedHere.filter((s) => s.fromFile)) {
        const value = EVERYTHING[s.name] ?? 'a-value-held-in-a-file-0123456789'
        const file = join(folder, s.name)
        // As `echo value > file` or a Secret made from a file leaves it: with a final newline.
        writeFileSync(file, `${value}\n`)
        const inEnvironment = loadWith(s, value)
        const fromFile = loadAll({
          ...EVERYTHING,
          ...COMPANIONS[s.name],
          [s.name]: undefined,
          [`${s.name}_FILE`]: file,
        })
        expect(fromFile, s.name).toEqual(inEnvironment)
        const both = loadAll({ ...EVERYTHING, [s.name]: 'the-environment-value-ignored', [`${s.name}_FILE`]: file })
        expect(both, s.name).toEqual(inEnvironment)
        expect(refusal(() => loadAll({ ...EVERYTHING, [`${s.name}_FILE`]: join(folder, 'absent') }))).toMatch(
          new RegExp(`^${s.name}_FILE: cannot read ${join(folder, 'absent')} \\(ENOENT`),
        )
      }
    } finally {
      rmSync(folder, { recursive: true, force: true })
    }
  })

  it('parse each integer within its bounds into the configuration, and refuse it outside them naming the bounds', () => {
    const integers = parsedHere.filter((s) => s.kind === 'integer')
    expect(integers.length).toBeGreaterThan(25)
    for (const s of integers) {
      const within = fc.integer({ min: s.min, max: Math.min(s.max, s.min + 1_000_000) })
      fc.assert(
        fc.property(within, within, (a, b) => {
          const same = JSON.stringify(loadWith(s, String(a))) === JSON.stringify(loadWith(s, String(b)))
          expect(same, `${s.name}=${a} and ${s.name}=${b}`).toBe(a === b)
        }),
        { numRuns: 15 },
      )
      const outside = fc.oneof(
        fc.integer({ min: Number.MIN_SAFE_INTEGER, max: s.min - 1 }).map(String),
        ...(s.max < Number.MAX_SAFE_INTEGER
          ? [fc.integer({ min: s.max + 1, max: Number.MAX_SAFE_INTEGER }).map(String)]
          : []),
        fc.integer({ min: s.min, max: Math.min(s.max - 1, s.min + 1_000_000) }).map((n) => `${n}.5`),
        fc.constantFrom('ten', '0x', '1,5', '12 minutes'),
      )
      fc.assert(
        fc.property(outside, (raw) => {
          expect(refusal(() => loadWith(s, raw))).toBe(`${s.name} must be ${integerRange(s)}, got "${raw}"`)
        }),
        { numRuns: 15 },
      )
    }
  })

  it('read each flag as 1 or 0 and refuse anything else naming it', () => {
    for (const s of parsedHere.filter((s) => s.kind === 'flag')) {
      const on = JSON.stringify(loadWith(s, '1'))
      expect(JSON.stringify(loadWith(s, 'yes')), s.name).toBe(on)
      expect(JSON.stringify(loadWith(s, 'off')), s.name).toBe(JSON.stringify(loadWith(s, '0')))
      expect(JSON.stringify(loadWith(s, '0')), s.name).not.toBe(on)
      expect(refusal(() => loadWith(s, 'maybe'))).toBe(`${s.name} must be 1 or 0, got "maybe"`)
    }
  })

  it('read each choice among its words, without case, and refuse any other naming them', () => {
    for (const s of parsedHere.filter((s) => s.kind === 'choice')) {
      const words = [...s.choices, ...(s.off ? ['off'] : [])]
      const loaded = words.map((word) => JSON.stringify(loadWith(s, word)))
      expect(new Set(loaded).size, s.name).toBe(words.length)
      expect(JSON.stringify(loadWith(s, ` ${words[0]?.toUpperCase()} `)), s.name).toBe(loaded[0])
      fc.assert(
        fc.property(
          fc.stringMatching(/^[a-z-]{1,12}$/).filter((word) => !words.includes(word)),
          (word) => {
            expect(refusal(() => loadWith(s, word))).toBe(`${s.name} must be ${choiceList(s)}, got "${word}"`)
          },
        ),
        { numRuns: 10 },
      )
    }
  })

  it('show each default as a value that, typed in, configures the same as leaving the setting out', () => {
    const withDefault = parsedHere.filter((s) => s.default !== undefined)
    expect(withDefault.length).toBeGreaterThan(40)
    for (const s of withDefault)
      expect(loadWith(s, defaultWord(s)), `${s.name}=${defaultWord(s)}`).toEqual(loadWith(s, undefined))
  })
})

describe('docs/settings.md', () => {
  const path = join(root, 'docs/settings.md')
  const page = readFileSync(path, 'utf8')

  it('has one row per setting, in the order of the declarations', () => {
    const rows = [...page.matchAll(/^\| `([A-Z0-9_]+)` \|/gm)].map(([, name]) => name)
    expect(rows).toEqual(names)
  })

  it('has the tables rendered from the declarations (refresh them with vitest -u, as the marker says)', async () => {
    expect(page).toContain(SETTINGS_TABLE_BEGIN)
    expect(page).toContain(SETTINGS_TABLE_END)
    await expect(
      withSettingsTables(page),
      'docs/settings.md differs from the declarations: run `pnpm --filter @mailroom/server exec vitest run src/settings/settings.test.ts -u`',
    ).toMatchFileSnapshot(path)
  })
})

describe('mailroom help', () => {
  it('lists every setting with its default', () => {
    const help = settingsHelp()
    for (const s of SETTINGS) {
      const line = help.split('\n').find((l) => l.startsWith(`  ${s.name} `))
      expect(line, s.name).toMatch(/\(default: .+\)/)
      const word = defaultWord(s)
      if (word !== undefined) expect(line, s.name).toContain(`(default: ${word}`)
    }
    expect(help).toMatch(/MAILROOM_SOFFICE +path of LibreOffice's soffice/)
    expect(help).toMatch(/MAILROOM_PG_POOL_SIZE +PostgreSQL connections per server \(default: 10\)/)
  })
})

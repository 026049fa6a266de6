import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { TestDatabase } from '@mailroom/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { captureCli } from '../../test/capture-cli.js'
import { createDemoDatabase } from '../../test/demo-database.js'

let database: TestDatabase
let dataDir: string
beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'mailroom-org-cli-'))
  database = await createDemoDatabase(dataDir)
})
afterAll(async () => {
  await database.drop()
  await rm(dataDir, { recursive: true, force: true })
})

function env(): NodeJS.ProcessEnv {
  const base = { MAILROOM_DATA_DIR: dataDir, LOG_LEVEL: 'silent', USER: 'ops', MAILROOM_PASSWORD_MIN_LENGTH: '10' }
  return database.url ? { ...base, DATABASE_URL: database.url } : base
}

const run = (args: string[], stdin?: string) => captureCli(args, env(), stdin)

const file = (name: string) => join(dataDir, name)

describe('mailroom org', () => {
  it('exports the organisation and applies the export with no change', async () => {
    const exported = await run(['org', 'export', '--out', file('org.yaml')])
    expect(exported).toMatchObject({ code: 0, out: `organisation written to ${file('org.yaml')}\n` })
    const text = await readFile(file('org.yaml'), 'utf8')
    expect(text).toMatch(/^# yaml-language-server: \$schema=organisation.schema.json\n/)
    expect(text).toContain('login: bbain')
    expect(text).not.toContain('passwordHash')
    expect(await run(['org', 'apply', file('org.yaml')])).toMatchObject({ code: 0, out: 'no changes\n' })
    expect((await run(['org', 'export', '--json', '--with-password-hashes'])).out).toContain('"passwordHash": "scrypt$')
    // Loading the demo hashes its passwords with the real scrypt: slow on a loaded machine. Cut short, it
    // would go on holding the embedded database, and the next tests' commands would be refused.
  }, 180_000)

  it('prints the plan, dry-runs, applies and records who applied', async () => {
    await writeFile(
      file('add.yaml'),
      'version: 1\nentities:\n  - { id: ARCH, label: Archives, shortLabel: Archives, type: Service, parent: DGS }\n',
    )
    expect(await run(['org', 'apply', '--dry-run', file('add.yaml')])).toMatchObject({
      code: 0,
      out: 'entities: +1 ~0 -0 (added: ARCH)\ndry run: nothing was changed\n',
    })
    expect(await run(['org', 'apply', file('add.yaml')])).toMatchObject({
      code: 0,
      out: 'entities: +1 ~0 -0 (added: ARCH)\napplied\n',
    })
    expect((await run(['org', 'apply', file('add.yaml')])).out).toBe('no changes\n')
    const history = await run(['org', 'history', '--limit', '1'])
    expect(history.out).toMatch(/^#\d+ \S+ ORG_APPLY by cli:ops: entities: \+1 ~0 -0 \(added: ARCH\)\n$/)
    const json = JSON.parse((await run(['org', 'history', '--limit', '1', '--json'])).out)
    expect(json).toMatchObject({
      event: 'ORG_APPLY',
      author: 'cli:ops',
      details: { prune: false, summary: { entities: { added: ['ARCH'], changed: [], removed: [] } } },
    })
  })

  it('reads a document from standard input and refuses a bad one with every path, changing nothing', async () => {
    const bad =
      'version: 1\nusers:\n  - { login: x, groups: [AGNT] }\ngroups:\n  - { id: G, label: G, perimeter: "destinaton = 1" }\n'
    const refused = await run(['org', 'apply', '-'], bad)
    expect(refused.code).toBe(1)
    expect(refused.err).toBe(
      'Organisation document is not valid (2 errors):\ngroups[0].perimeter: unknown column "destinaton" at position 1\nusers[0].groups[0]: no group "AGNT"\n',
    )
    expect((await run(['org', 'apply', '-'], 'version: [1\n')).err).toMatch(
      /^Organisation document is not valid YAML or JSON: line 2, column 1: /,
    )
  })

  it('says which file it cannot read', async () => {
    const missing = await run(['org', 'apply', file('missing.yaml')])
    expect(missing.code).toBe(1)
    expect(missing.err).toMatch(/^cannot read .*missing\.yaml: ENOENT/)
  })

  it('prints the JSON Schema', async () => {
    const schema = JSON.parse((await run(['org', 'schema'])).out)
    expect(schema.title).toBe('Mailroom organisation document')
  })
})

describe('mailroom user', () => {
  it('adds a user with a password from standard input, lists, disables and enables them', async () => {
    expect(
      await run(
        [
          'user',
          'add',
          'jdoe',
          '--firstname',
          'Jane',
          '--group',
          'AGENT',
          '--entity',
          'PJS',
          '--entity',
          'CAB',
          '--password-stdin',
        ],
        'short\n',
      ),
    ).toMatchObject({
      code: 1,
      err: 'Password does not follow the password rules: at least 10 characters\n',
    })
    const added = await run(
      [
        'user',
        'add',
        'jdoe',
        '--firstname',
        'Jane',
        '--group',
        'AGENT',
        '--entity',
        'PJS',
        '--entity',
        'CAB',
        '--password-stdin',
      ],
      'a long password\n',
    )
    expect(added).toMatchObject({ code: 0, out: expect.stringMatching(/^user jdoe added \(id \d+\)\n$/) })
    expect((await run(['user', 'list'])).out).toContain('jdoe\tenabled\tstandard\tPJS\tAGENT\tJane\n')
    expect(await run(['user', 'disable', 'jdoe'])).toMatchObject({ code: 0, out: 'user jdoe disabled\n' })
    expect((await run(['user', 'list', '--json'])).out).toContain(
      '"login":"jdoe","firstname":"Jane","lastname":null,"mail":null,"mode":"standard","enabled":false',
    )
    expect(await run(['user', 'enable', 'jdoe'])).toMatchObject({ code: 0, out: 'user jdoe enabled\n' })
    expect(await run(['user', 'passwd', 'jdoe'], 'another long one\n')).toMatchObject({
      code: 0,
      out: 'password of jdoe changed\n',
    })
    expect(await run(['user', 'passwd', 'nobody'], 'another long one\n')).toMatchObject({
      code: 1,
      err: 'No user "nobody"\n',
    })
    expect(await run(['user', 'add', 'JDOE'])).toMatchObject({ code: 1, err: 'User "JDOE" already exists\n' })
    const history = (await run(['org', 'history', '--limit', '4'])).out.split('\n').map((line) => line.split(' ')[2])
    expect(history.slice(0, 4)).toEqual(['USER_PASSWORD', 'USER_ENABLE', 'USER_DISABLE', 'USER_ADD'])
  })
})

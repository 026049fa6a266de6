import { type ChildProcess, execFile, spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { freeLoopbackPort } from '../servers/test-server.js'

const run = promisify(execFile)

export const SLAPD_PATH = '/usr/sbin/slapd'
const SLAPADD_PATH = '/usr/sbin/slapadd'
const LDAPMODIFY_PATH = '/usr/bin/ldapmodify'

/** Why the directory tests cannot run here (slapd or openssl missing), or null when they can. */
export function slapdMissing(): string | null {
  if (
    !existsSync(SLAPD_PATH) ||
    !existsSync(SLAPADD_PATH) ||
    !existsSync('/usr/bin/ldapsearch') ||
    !existsSync(LDAPMODIFY_PATH)
  )
    return `OpenLDAP's slapd or its tools are not installed (run scripts/install-slapd.sh): directory tests skipped`
  return null
}

/** An entry of the test directory: a person under ou=people, and how its account stands. */
export interface DirectoryPerson {
  readonly uid: string
  readonly password: string
  readonly mail?: string
  readonly givenName?: string
  readonly surname?: string
  /**
   * DNs of groups, written as `seeAlso` (slapadd runs no memberof overlay): a sync reads them as Active
   * Directory's memberOf with `attributes: { memberOf: seeAlso }`.
   */
  readonly seeAlso?: readonly string[]
  /** Locked for good by the password policy (an account the directory's administrators disabled). */
  readonly disabled?: boolean
}

/** A group of the test directory (groupOfNames under ou=groups), its members named by uid. */
export interface DirectoryGroup {
  readonly cn: string
  readonly members: readonly string[]
}

/** An OpenLDAP server of a test, on loopback, with its own configuration, database and TLS certificate. */
export interface TestDirectory {
  readonly suffix: string
  readonly peopleBase: string
  /** Where the groups are (`ou=groups,…`). */
  readonly groupsBase: string
  /** `ldap://127.0.0.1:<port>` (StartTLS offered). */
  readonly url: string
  /** `ldaps://127.0.0.1:<port>`. */
  readonly ldapsUrl: string
  /** The certificate (PEM) of the authority that signed the server's. */
  readonly ca: string
  /** The administrator, who may search everything (a service account). */
  readonly adminDn: string
  readonly adminPassword: string
  /** Adds a person while the server runs (as its administrators would). */
  addPerson(person: DirectoryPerson): Promise<void>
  /** Removes a person's entry. */
  removePerson(uid: string): Promise<void>
  /** Replaces an attribute's values of a person (`mail`, `sn`…). */
  changePerson(uid: string, attribute: string, value: string): Promise<void>
  stop(): Promise<void>
}

const SUFFIX = 'dc=mailroom,dc=test'

/**
 * Starts slapd on two free loopback ports (plain + StartTLS, LDAPS) with `people` in its directory, and
 * `groups` of them. Changes while it runs need ldapmodify (ldap-utils, scripts/install-slapd.sh).
 */
export async function startTestDirectory(
  people: readonly DirectoryPerson[],
  groups: readonly DirectoryGroup[] = [],
): Promise<TestDirectory> {
  const folder = await mkdtemp(join(tmpdir(), 'mailroom-slapd-'))
  await mkdir(join(folder, 'db'))
  await writeCertificates(folder)
  const adminPassword = 'directory-admin-secret'
  await writeFile(join(folder, 'slapd.conf'), configuration(folder, adminPassword))
  await writeFile(join(folder, 'data.ldif'), ldif(people, groups))
  await run(SLAPADD_PATH, ['-f', join(folder, 'slapd.conf'), '-l', join(folder, 'data.ldif')])
  const [port, tlsPort] = [await freeLoopbackPort(), await freeLoopbackPort()]
  const url = `ldap://127.0.0.1:${port}`
  const ldapsUrl = `ldaps://127.0.0.1:${tlsPort}`
  // -d 0: stays in the foreground, so the test owns the process and its end.
  const slapd: ChildProcess = spawn(
    SLAPD_PATH,
    ['-f', join(folder, 'slapd.conf'), '-h', `${url} ${ldapsUrl}`, '-d', '0'],
    {
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  )
  let output = ''
  slapd.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString()
  })
  await waitUntilServing(url, () => (slapd.exitCode === null ? null : `slapd exited (${slapd.exitCode}): ${output}`))
  const adminDn = `cn=admin,${SUFFIX}`
  const modify = (changes: string) => ldapModify(url, adminDn, adminPassword, changes)
  const personDn = (uid: string) => `uid=${uid},ou=people,${SUFFIX}`
  return {
    suffix: SUFFIX,
    peopleBase: `ou=people,${SUFFIX}`,
    groupsBase: `ou=groups,${SUFFIX}`,
    url,
    ldapsUrl,
    ca: await readFile(join(folder, 'ca.pem'), 'utf8'),
    adminDn,
    adminPassword,
    addPerson: (person) => {
      const [dn, ...attributes] = personEntry(person)
      return modify(`${[dn, 'changetype: add', ...attributes].join('\n')}\n`)
    },
    removePerson: (uid) => modify(`dn: ${personDn(uid)}\nchangetype: delete\n`),
    changePerson: (uid, attribute, value) =>
      modify(`dn: ${personDn(uid)}\nchangetype: modify\nreplace: ${attribute}\n${attribute}: ${value}\n-\n`),
    async stop() {
      if (slapd.exitCode === null) {
        const exited = new Promise((resolve) => slapd.once('exit', resolve))
        slapd.kill('SIGTERM')
        await exited
      }
      await rm(folder, { recursive: true, force: true })
    },
  }
}

/** A throw-away authority and a server certificate for 127.0.0.1 and localhost, signed by it. */
async function writeCertificates(folder: string): Promise<void> {
  const file = (name: string) => join(folder, name)
  await run('openssl', [
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    file('ca.key'),
    '-out',
    file('ca.pem'),
    '-days',
    '2',
    '-subj',
    '/CN=Mailroom test authority',
  ])
  await run('openssl', [
    'req',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    file('server.key'),
    '-out',
    file('server.csr'),
    '-subj',
    '/CN=127.0.0.1',
  ])
  await writeFile(file('ext.cnf'), 'subjectAltName=IP:127.0.0.1,DNS:localhost\n')
  await run('openssl', [
    'x509',
    '-req',
    '-in',
    file('server.csr'),
    '-CA',
    file('ca.pem'),
    '-CAkey',
    file('ca.key'),
    '-CAcreateserial',
    '-out',
    file('server.pem'),
    '-days',
    '2',
    '-extfile',
    file('ext.cnf'),
  ])
}

function configuration(folder: string, adminPassword: string): string {
  return [
    ...['core', 'cosine', 'inetorgperson', 'nis'].map((schema) => `include /etc/ldap/schema/${schema}.schema`),
    'modulepath /usr/lib/ldap',
    'moduleload back_mdb',
    'moduleload ppolicy',
    `pidfile ${join(folder, 'slapd.pid')}`,
    `TLSCACertificateFile ${join(folder, 'ca.pem')}`,
    `TLSCertificateFile ${join(folder, 'server.pem')}`,
    `TLSCertificateKeyFile ${join(folder, 'server.key')}`,
    'database mdb',
    `suffix "${SUFFIX}"`,
    `rootdn "cn=admin,${SUFFIX}"`,
    `rootpw ${adminPassword}`,
    `directory ${join(folder, 'db')}`,
    'maxsize 10485760',
    'overlay ppolicy',
    `ppolicy_default "cn=default,ou=policies,${SUFFIX}"`,
    'ppolicy_use_lockout',
    '',
  ].join('\n')
}

/** A person's entry as LDIF lines, its DN first. */
function personEntry(person: DirectoryPerson): string[] {
  return [
    `dn: uid=${person.uid},ou=people,${SUFFIX}`,
    'objectClass: inetOrgPerson',
    `uid: ${person.uid}`,
    `cn: ${[person.givenName, person.surname ?? person.uid].filter(Boolean).join(' ')}`,
    `sn: ${person.surname ?? person.uid}`,
    ...(person.givenName ? [`givenName: ${person.givenName}`] : []),
    ...(person.mail ? [`mail: ${person.mail}`] : []),
    ...(person.seeAlso ?? []).map((dn) => `seeAlso: ${dn}`),
    `userPassword: ${person.password}`,
    // The password policy's "locked for good" value: the directory refuses every bind of the account.
    ...(person.disabled ? ['pwdAccountLockedTime: 000001010000Z'] : []),
  ]
}

/** Runs ldapmodify as the administrator with `changes` (LDIF) on its standard input. */
async function ldapModify(url: string, adminDn: string, adminPassword: string, changes: string): Promise<void> {
  const child = spawn(LDAPMODIFY_PATH, ['-x', '-H', url, '-D', adminDn, '-w', adminPassword], {
    stdio: ['pipe', 'ignore', 'pipe'],
  })
  let output = ''
  child.stderr.on('data', (chunk: Buffer) => {
    output += chunk.toString()
  })
  child.stdin.end(changes)
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject)
    child.once('close', resolve)
  })
  if (code !== 0) throw new Error(`ldapmodify failed (${code}): ${output}`)
}

function ldif(people: readonly DirectoryPerson[], groups: readonly DirectoryGroup[]): string {
  const entries = [
    [`dn: ${SUFFIX}`, 'objectClass: dcObject', 'objectClass: organization', 'o: Mailroom tests', 'dc: mailroom'],
    [`dn: ou=people,${SUFFIX}`, 'objectClass: organizationalUnit', 'ou: people'],
    [`dn: ou=policies,${SUFFIX}`, 'objectClass: organizationalUnit', 'ou: policies'],
    [
      `dn: cn=default,ou=policies,${SUFFIX}`,
      'objectClass: pwdPolicy',
      'objectClass: person',
      'cn: default',
      'sn: default',
      'pwdAttribute: userPassword',
      'pwdLockout: TRUE',
    ],
    ...people.map(personEntry),
    [`dn: ou=groups,${SUFFIX}`, 'objectClass: organizationalUnit', 'ou: groups'],
    ...groups.map((group) => [
      `dn: cn=${group.cn},ou=groups,${SUFFIX}`,
      'objectClass: groupOfNames',
      `cn: ${group.cn}`,
      // groupOfNames needs a member: the administrator stands in for none.
      ...(group.members.length === 0 ? [`member: cn=admin,${SUFFIX}`] : []),
      ...group.members.map((uid) => `member: uid=${uid},ou=people,${SUFFIX}`),
    ]),
  ]
  return `${entries.map((lines) => lines.join('\n')).join('\n\n')}\n`
}

/**
 * slapd writes its pid file before it serves; ready when a client of its own (ldapsearch, from ldap-utils)
 * reads the root entry over the plain listener.
 */
async function waitUntilServing(url: string, failure: () => string | null): Promise<void> {
  const deadline = Date.now() + 30_000
  for (;;) {
    const problem = failure()
    if (problem) throw new Error(problem)
    const answered = await run('ldapsearch', ['-x', '-H', url, '-b', '', '-s', 'base', '-LLL', 'namingContexts']).then(
      () => true,
      () => false,
    )
    if (answered) return
    if (Date.now() > deadline) throw new Error(`slapd did not answer at ${url} within 30 s`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

/**
 * Sign-ins per second through the organisation's directory (a bind to a real OpenLDAP server, by template
 * over LDAPS and after a search over StartTLS) and with an OpenID Connect provider's access tokens (a real
 * oidc-provider on loopback; the token's signature checked with its published keys), side by side with
 * local passwords in the same run (issue #36). HTTP `GET /rest/entities/PJS`, on PostgreSQL, the production
 * password hasher (scrypt N=2^17), each phase's clients rotating over 20 users of its kind.
 *
 * Phases, each alone: local passwords checked on every request (the verified-password memo off, as a first
 * sign-in is), local passwords as HTTP Basic clients see them (the memo on: default), directory users by
 * template and by search (a directory's answer is never kept: every request binds), provider tokens, and
 * Mailroom's own bearer tokens.
 *
 *   pnpm --filter @mailroom/bench bench:directory-sign-in
 *   BENCH_SECONDS (per phase, default 10), BENCH_CLIENTS (default 6), TEST_DATABASE_URL
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createHttpApp, createHttpServer } from '@mailroom/http-koa'
import { createMailroom, type Mailroom, type MailroomOptions, ScryptPasswordHasher } from '@mailroom/mailroom'
import {
  createTestDatabase,
  slapdMissing,
  startTestDirectory,
  startTestIdentityProvider,
  TEST_SECRET,
} from '@mailroom/testing'
import { type HttpPhaseResult, runHttpPhase } from './http-load.js'

const seconds = Number(process.env.BENCH_SECONDS ?? 10)
// At most 8 checks from one address wait at once (the default throttle): every client here is 127.0.0.1.
const clients = Number(process.env.BENCH_CLIENTS ?? 6)
const USERS = 20

const basic = (login: string, password: string) => ({
  authorization: `Basic ${Buffer.from(`${login}:${password}`).toString('base64')}`,
})
const bearer = (token: string) => ({ authorization: `Bearer ${token}` })

function line(r: HttpPhaseResult): string {
  return `${r.name.padEnd(44)} ${r.perSecond.toFixed(0).padStart(6)} req/s  p50 ${r.p50.toFixed(1).padStart(6)} ms  p99 ${r.p99.toFixed(1).padStart(7)} ms  server CPU ${r.serverCpuMsPerResponse.toFixed(2).padStart(6)} ms/req  errors ${r.errors}`
}

/** A Mailroom served over HTTP on loopback, sharing the run's database. */
async function serve(options: MailroomOptions): Promise<{ mailroom: Mailroom; server: Server; url: string }> {
  const mailroom = await createMailroom({ journal: { sweepIntervalMs: 0 }, ...options })
  const server = createHttpServer(createHttpApp({ services: mailroom }))
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { mailroom, server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/rest/entities/PJS` }
}

async function main(): Promise<void> {
  const missing = slapdMissing()
  if (missing) {
    // `pnpm bench` goes on with the other benchmarks.
    console.log(`directory sign-in benchmark: ${missing}`)
    return
  }
  const people = Array.from({ length: USERS }, (_, i) => ({
    uid: `dir${i}`,
    password: `Dir-Secret-${i}`,
    surname: `Dir${i}`,
  }))
  const directory = await startTestDirectory(people)
  const provider = await startTestIdentityProvider()
  provider.allowRedirects(['http://127.0.0.1:9/rest/authenticate/oidc/callback'])
  const database = await createTestDatabase('postgres')
  const docserverDir = await mkdtemp(join(tmpdir(), 'mailroom-directory-bench-'))
  const hasher = new ScryptPasswordHasher()
  const common = { database: database.target, docserverDir, secret: TEST_SECRET, passwordHasher: hasher }
  const oidc = {
    issuer: provider.issuer,
    clientId: provider.clientId,
    clientSecret: provider.clientSecret,
    audience: provider.audience,
  }
  const served: { mailroom: Mailroom; server: Server }[] = []
  try {
    // The default server: local passwords (memo on), directory binds by template over LDAPS, provider tokens.
    const main = await serve({
      ...common,
      demo: true,
      directory: { url: directory.ldapsUrl, ca: directory.ca, bindTemplate: `uid={login},${directory.peopleBase}` },
      oidc,
    })
    served.push(main)
    // Local users with their own passwords, directory users and provider users, all AGENT of PJS.
    const locals = Array.from({ length: USERS }, (_, i) => ({ login: `local${i}`, password: `Local-Secret-${i}` }))
    const member = { groups: ['AGENT'], entities: [{ id: 'PJS', primary: true }] }
    await main.mailroom.organisation.apply({
      version: 1,
      users: [
        ...(await Promise.all(
          locals.map(async (u) => ({ login: u.login, ...member, passwordHash: await hasher.hash(u.password) })),
        )),
        ...people.map((p) => ({ login: p.uid, authentication: 'ldap', ...member })),
        ...Array.from({ length: USERS }, (_, i) => ({ login: `sso${i}`, authentication: 'oidc', ...member })),
      ],
    })
    const search = await serve({
      ...common,
      directory: {
        url: directory.url,
        ca: directory.ca,
        search: {
          base: directory.peopleBase,
          filter: '(&(objectClass=inetOrgPerson)(uid={login}))',
          bindDn: directory.adminDn,
          bindPassword: directory.adminPassword,
        },
      },
    })
    served.push(search)
    const checked = await serve({ ...common, auth: { verifiedCredentialSeconds: 0 } })
    served.push(checked)

    const localVariants = locals.map((u) => basic(u.login, u.password))
    const directoryVariants = people.map((p) => basic(p.uid, p.password))
    const providerTokens = await Promise.all(
      Array.from({ length: USERS }, (_, i) =>
        provider.sign(
          { iss: provider.issuer, aud: provider.audience, sub: `sso${i}`, preferred_username: `sso${i}` },
          { expiresInSeconds: 3600 },
        ),
      ),
    )
    // One after the other: the throttle lets an address run a few password checks at once, not twenty.
    const ownTokens: string[] = []
    for (const u of locals) ownTokens.push((await main.mailroom.auth.login(u.login, u.password, '127.0.0.1')).token)

    console.log(
      `Mailroom sign-ins: ${clients} clients per phase over ${USERS} users each, GET /rest/entities/PJS, PostgreSQL, scrypt N=2^17, slapd ${directory.url} on loopback, oidc-provider ${provider.issuer}; ${seconds} s per phase`,
    )
    await runHttpPhase('warm-up', 2, 2, { url: main.url, headerVariants: localVariants })
    await runHttpPhase('warm-up', 2, 2, { url: main.url, headerVariants: providerTokens.map(bearer) })
    const phases: [string, string, Record<string, string>[]][] = [
      ['local password, checked each request', checked.url, localVariants],
      ['local password, Basic (memo 60 s, default)', main.url, localVariants],
      ['directory bind by template, LDAPS', main.url, directoryVariants],
      ['directory search + bind, StartTLS', search.url, directoryVariants],
      ['OIDC provider access token (JWKS)', main.url, providerTokens.map(bearer)],
      ["Mailroom's own bearer token", main.url, ownTokens.map(bearer)],
    ]
    const results: HttpPhaseResult[] = []
    for (const [name, url, headerVariants] of phases)
      results.push(await runHttpPhase(name, clients, seconds, { url, headerVariants }))
    for (const result of results) console.log(`  ${line(result)}`)
    if (process.env.BENCH_JSON) await writeFile(process.env.BENCH_JSON, JSON.stringify(results, null, 2))
  } finally {
    for (const { mailroom, server } of served.reverse()) {
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
      await mailroom.close()
    }
    await database.drop()
    await rm(docserverDir, { recursive: true, force: true })
    await provider.stop()
    await directory.stop()
  }
}

main().catch((error: unknown) => {
  console.error(error)
  process.exitCode = 1
})

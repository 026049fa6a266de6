/**
 * A normal user's latency while one address floods the server with wrong passwords (issue #19 part 4):
 * HTTP Basic `GET /rest/entities/PJS` as bbain, alone, then during a flood of wrong Basic requests for
 * superadmin, each with another password, from the same address (everything comes from 127.0.0.1: the
 * other users behind a misbehaving script's address). The server uses the production password hasher
 * (scrypt at OWASP's cost) and the default throttle, on PostgreSQL. Both loads run in worker threads.
 * Baselines in the same run: the user alone, and beside a load of as many clients sending the right
 * password of another user (what any flood of that size costs the server).
 *
 *   pnpm bench:auth-flood (also part of pnpm bench)
 *   BENCH_SECONDS (per phase, default 10), BENCH_FLOOD_CLIENTS (default 16), TEST_DATABASE_URL
 */
import { mkdtemp, rm } from 'node:fs/promises'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createHttpApp, createHttpServer } from '@mailroom/http-koa'
import { createMailroom, ScryptPasswordHasher } from '@mailroom/mailroom'
import { createTestDatabase, TEST_SECRET } from '@mailroom/testing'
import { type HttpPhaseResult, runHttpPhase } from './http-load.js'

const seconds = Number(process.env.BENCH_SECONDS ?? 10)
const floodClients = Number(process.env.BENCH_FLOOD_CLIENTS ?? 16)
const USER_CLIENTS = 2

const basic = (credentials: string) => `Basic ${Buffer.from(credentials).toString('base64')}`

function line(r: HttpPhaseResult): string {
  return `${r.name.padEnd(24)} ${r.perSecond.toFixed(0).padStart(6)} req/s  p50 ${r.p50.toFixed(1).padStart(6)} ms  p99 ${r.p99.toFixed(1).padStart(7)} ms  errors ${r.errors}`
}

async function main(): Promise<void> {
  const database = await createTestDatabase('postgres')
  const docserverDir = await mkdtemp(join(tmpdir(), 'mailroom-auth-flood-'))
  const scrypt = new ScryptPasswordHasher()
  let checks = 0
  const hasher = {
    hash: (password: string) => scrypt.hash(password),
    needsRehash: (stored: string) => scrypt.needsRehash(stored),
    verify: (password: string, stored: string) => {
      checks++
      return scrypt.verify(password, stored)
    },
  }
  const mailroom = await createMailroom({
    database: database.target,
    docserverDir,
    secret: TEST_SECRET,
    demo: true,
    passwordHasher: hasher,
    journal: { sweepIntervalMs: 0 },
  })
  const server = createHttpServer(createHttpApp({ services: mailroom }))
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/rest/entities/PJS`
  try {
    const user = { url, headers: { authorization: basic('bbain:maarch') } }
    // Wrong passwords, every one different (a guesser; a script retrying one wrong password is checked once).
    const flood = {
      url,
      headerVariants: Array.from({ length: 5000 }, (_, i) => ({ authorization: basic(`superadmin:guess-${i}`) })),
      status: [401, 429],
    }
    await runHttpPhase('warm-up', USER_CLIENTS, 2, user)
    console.log(
      `Mailroom authentication under a flood: bbain (${USER_CLIENTS} clients, Basic) beside ${floodClients} clients sending wrong passwords for superadmin, all from 127.0.0.1; scrypt N=2^17; ${seconds} s per phase`,
    )
    const alone = await runHttpPhase('normal user alone', USER_CLIENTS, seconds, user)
    // The same volume of requests with the right password (another user): what any flood of this size costs.
    const busy = { url, headers: { authorization: basic('ppetit:maarch') } }
    const [busyResult, duringBusy] = await Promise.all([
      runHttpPhase('right-password load', floodClients, seconds, busy),
      runHttpPhase('normal user during load', USER_CLIENTS, seconds, user),
    ])
    checks = 0
    const [floodResult, during] = await Promise.all([
      runHttpPhase('flood (wrong passwords)', floodClients, seconds, flood),
      runHttpPhase('normal user during flood', USER_CLIENTS, seconds, user),
    ])
    console.log(`  ${line(alone)}`)
    console.log(`  ${line(busyResult)}`)
    console.log(`  ${line(duringBusy)}`)
    console.log(`  ${line(floodResult)}`)
    console.log(`  ${line(during)}`)
    console.log(
      `  password hashes checked during the flood: ${checks} (of ${floodResult.count.toLocaleString('en')} wrong requests)`,
    )
    console.log(
      `  normal user p99 during flood / alone: ${(during.p99 / alone.p99).toFixed(2)}x; throughput ${((during.perSecond / alone.perSecond) * 100).toFixed(0)}% of alone`,
    )
    console.log(
      `  normal user p99 during flood / during a right-password load of the same clients: ${(during.p99 / duringBusy.p99).toFixed(2)}x`,
    )
    // A guesser trying other logins too, from the same address: counted against the address as a whole.
    const spray = {
      ...flood,
      headerVariants: Array.from({ length: 5000 }, (_, i) => ({ authorization: basic(`user${i % 500}:guess-${i}`) })),
    }
    checks = 0
    const [sprayResult, duringSpray] = await Promise.all([
      runHttpPhase('spray (other logins)', floodClients, seconds, spray),
      runHttpPhase('normal user during spray', USER_CLIENTS, seconds, user),
    ])
    console.log(`  ${line(sprayResult)}`)
    console.log(`  ${line(duringSpray)}`)
    console.log(
      `  password hashes checked during the spray: ${checks} (of ${sprayResult.count.toLocaleString('en')} wrong requests)`,
    )
    console.log(
      `  normal user p99 during spray / alone: ${(duringSpray.p99 / alone.p99).toFixed(2)}x; throughput ${((duringSpray.perSecond / alone.perSecond) * 100).toFixed(0)}% of alone`,
    )
  } finally {
    server.closeAllConnections()
    await new Promise<void>((resolve) => server.close(() => resolve()))
    await mailroom.close()
    await database.drop()
    await rm(docserverDir, { recursive: true, force: true })
  }
}

main().catch((error: unknown) => {
  console.error(error)
  process.exitCode = 1
})

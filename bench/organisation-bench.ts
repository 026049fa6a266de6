/**
 * Organisation apply (issue #20): a team's organisation of 500 entities in a 6-level tree, 40 groups with
 * perimeter clauses and 5,000 users (1-2 groups, 1-3 entities each) applied with one `org apply` to an empty
 * database (YAML parsing, validation of every reference and clause, plan, one transaction), beside inserting
 * the very rows that apply wrote straight into another empty database with batched kysely inserts in one
 * transaction, in the same run. Then the same document applied again ("no changes": read, validate, plan).
 *
 *   pnpm --filter @mailroom/bench run bench:organisation
 *   BENCH_ENTITIES (default 500), BENCH_USERS (default 5000), BENCH_GROUPS (default 40),
 *   BENCH_DB=pglite for embedded PGlite (default: PostgreSQL at TEST_DATABASE_URL)
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { OrganisationDocument } from '@mailroom/core'
import { createMailroom, type Database, formatOrganisationYaml, type Mailroom } from '@mailroom/mailroom'
import { createTestDatabase, TEST_PASSWORD_HASHER, TEST_SECRET, type TestDatabase } from '@mailroom/testing'

const entityCount = Number(process.env.BENCH_ENTITIES ?? 500)
const userCount = Number(process.env.BENCH_USERS ?? 5000)
const groupCount = Number(process.env.BENCH_GROUPS ?? 40)
const LEVELS = 6
const kind = process.env.BENCH_DB === 'pglite' ? 'pglite' : 'postgres'

const CLAUSES = [
  'destination in (@my_entities, @subentities[@my_primary_entity])',
  'destination in (@my_entities)',
  "destination in (@subentities[@my_primary_entity]) and status <> 'DEL'",
  'typist = @user_id or destination in (@my_entities)',
]

/** Entities spread over LEVELS levels: each level's entities hang under the previous level's, round robin. */
function buildDocument(): OrganisationDocument {
  const perLevel = [
    1,
    ...Array.from({ length: LEVELS - 1 }, (_, i) => Math.round(((entityCount - 1) * 2 ** i) / (2 ** (LEVELS - 1) - 1))),
  ]
  perLevel[LEVELS - 1]! += entityCount - perLevel.reduce((a, b) => a + b, 0)
  const entities: NonNullable<OrganisationDocument['entities']> = []
  let previous: string[] = []
  for (const [level, count] of perLevel.entries()) {
    const current: string[] = []
    for (let i = 0; i < count; i++) {
      const id = `L${level}_${i}`
      current.push(id)
      entities.push({
        id,
        label: `Entity ${level}.${i}`,
        shortLabel: `E${level}.${i}`,
        fullName: null,
        type: ['Direction', 'Direction', 'Service', 'Service', 'Bureau', 'Bureau'][level]!,
        parent: level === 0 ? null : previous[i % previous.length]!,
        businessId: level === 0 ? '11122233300044' : null,
        enabled: true,
        email: null,
        address: { line1: null, line2: null, line3: null, zipcode: null, city: null, country: null },
        ldapId: null,
        archivalAgency: null,
        archivalAgreement: null,
        producerService: null,
        externalId: {},
      })
    }
    previous = current
  }
  const groups = Array.from({ length: groupCount }, (_, i) => ({
    id: `GROUP_${i}`,
    label: `Group ${i}`,
    perimeter: i === 0 ? '1=1' : CLAUSES[i % CLAUSES.length]!,
    perimeterComment: null,
    canIndex: i % 4 !== 3,
    indexing: {
      entities: [],
      keywords: i === 0 ? (['ALL_ENTITIES'] as const) : (['MY_ENTITIES', 'ALL_ENTITIES_BELOW'] as const),
    },
    digitalSafe: i % 2 === 0,
  }))
  const users = Array.from({ length: userCount }, (_, i) => {
    const memberships = Array.from({ length: 1 + (i % 3) }, (_, k) => entities[(i * 7 + k * 131) % entities.length]!.id)
    return {
      login: `user${i}`,
      firstname: `First${i}`,
      lastname: `LAST${i}`,
      mail: `user${i}@example.org`,
      mode: 'standard' as const,
      authentication: 'standard' as const,
      enabled: true,
      groups: [
        ...new Set([
          `GROUP_${1 + (i % (groupCount - 1))}`,
          ...(i % 5 === 0 ? [`GROUP_${1 + ((i * 3) % (groupCount - 1))}`] : []),
        ]),
      ],
      entities: [...new Set(memberships)].map((id, k) => ({ id, primary: k === 0, role: null })),
    }
  })
  return {
    version: 1,
    entities,
    groups: groups.map((g) => ({
      ...g,
      indexing: { entities: [], keywords: [...g.indexing.keywords] },
      privileges: [],
    })),
    users,
    statuses: [
      { id: 'NEW', label: 'New', closing: false, system: true, image: null, searchable: true, modifiable: true },
    ],
  }
}

const TABLES = ['entities', 'usergroups', 'security', 'users', 'users_entities', 'usergroup_content', 'status'] as const

async function open(database: TestDatabase, docserverDir: string): Promise<Mailroom> {
  return createMailroom({
    database: database.target,
    docserverDir,
    secret: TEST_SECRET,
    passwordHasher: TEST_PASSWORD_HASHER,
    throttle: false,
    converter: null,
    journal: { sweepIntervalMs: 0 },
  })
}

async function main(): Promise<void> {
  if (kind === 'postgres') process.env.MAILROOM_TEST_DB = 'postgres'
  const document = buildDocument()
  const yaml = formatOrganisationYaml(document)
  console.log(
    `organisation: ${document.entities!.length} entities in ${LEVELS} levels, ${document.groups!.length} groups, ${document.users!.length} users (${(yaml.length / 1e6).toFixed(1)} MB of YAML), on ${kind}`,
  )
  const docserverDir = await mkdtemp(join(tmpdir(), 'mailroom-org-bench-'))
  const applied = await createTestDatabase(kind)
  const direct = await createTestDatabase(kind)
  const viaApply = await open(applied, docserverDir)
  const viaInsert = await open(direct, docserverDir)
  try {
    let t0 = performance.now()
    const result = await viaApply.organisation.apply(yaml)
    const applyMs = performance.now() - t0
    console.log(
      `org apply (parse, validate, plan, one transaction): ${applyMs.toFixed(0)} ms; ${result.lines.length} section lines`,
    )

    const rows = Object.fromEntries(
      await Promise.all(
        TABLES.map(async (table) => [table, await viaApply.db.selectFrom(table).selectAll().execute()] as const),
      ),
    )
    t0 = performance.now()
    await viaInsert.db.transaction().execute(async (trx) => {
      for (const table of TABLES) {
        const tableRows = (rows[table] as Record<string, unknown>[]).map((row) => {
          const copy: Record<string, unknown> = { ...row }
          // JSON columns come back parsed; kysely inserts them as text.
          for (const [key, value] of Object.entries(copy))
            if (value !== null && typeof value === 'object' && !(value instanceof Date))
              copy[key] = JSON.stringify(value)
          return copy
        })
        for (let i = 0; i < tableRows.length; i += 1000)
          await trx
            .insertInto(table as keyof Database)
            .values(tableRows.slice(i, i + 1000) as never)
            .execute()
      }
    })
    const insertMs = performance.now() - t0
    console.log(
      `direct batched inserts of the same ${Object.values(rows).reduce((n, r) => n + r.length, 0)} rows (one transaction): ${insertMs.toFixed(0)} ms`,
    )
    console.log(`ratio apply / direct inserts: ${(applyMs / insertMs).toFixed(2)}`)

    t0 = performance.now()
    const again = await viaApply.organisation.apply(yaml)
    console.log(`org apply again (${again.lines.join('; ')}): ${(performance.now() - t0).toFixed(0)} ms`)
    t0 = performance.now()
    await viaApply.organisation.export()
    console.log(`org export: ${(performance.now() - t0).toFixed(0)} ms`)
  } finally {
    await viaApply.close()
    await viaInsert.close()
    await applied.drop()
    await direct.drop()
    await rm(docserverDir, { recursive: true, force: true })
  }
}

await main()

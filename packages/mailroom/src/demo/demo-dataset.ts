import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import type { PasswordHasher } from '@mailroom/core'
import { createOrganisationAdmin, type Database, parseOrganisationText } from '@mailroom/storage'
import { type Kysely, sql } from 'kysely'

/** The demo users' passwords (runtime-contract.md): demo-only, and never part of an organisation document. */
export const DEMO_PASSWORDS: Readonly<Record<string, string>> = {
  superadmin: 'superadmin',
  cchaplin: 'maarch',
  bbain: 'maarch',
  bblier: 'maarch',
  ppetit: 'maarch',
  ddur: 'maarch',
}

// From src/demo/ (sources, tests) and from dist/ (the built package): the file ships beside both.
const CANDIDATES = ['../../demo/demo-organisation.yaml', '../demo/demo-organisation.yaml']

/** Path of the demo organisation document shipped with the package (packages/mailroom/demo/demo-organisation.yaml). */
export function demoOrganisationPath(): string {
  for (const candidate of CANDIDATES) {
    const path = fileURLToPath(new URL(candidate, import.meta.url))
    try {
      readFileSync(path, { flag: 'r' })
      return path
    } catch {}
  }
  throw new Error('demo-organisation.yaml is missing from the @mailroom/mailroom package')
}

/** The text of the demo organisation document: the one source of truth of the demo dataset. */
export function demoOrganisationText(): string {
  return readFileSync(demoOrganisationPath(), 'utf8')
}

/** True when the demo dataset (or any user) is already there. */
export async function hasUsers(db: Kysely<Database>): Promise<boolean> {
  const row = await db.selectFrom('users').select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow()
  return row.n > 0
}

/**
 * Loads the demo dataset: applies the shipped demo organisation document with the demo passwords hashed in,
 * in one transaction. Does nothing (returns false) when users already exist, so `mailroom demo` can be re-run.
 */
export async function loadDemoData(db: Kysely<Database>, hasher: PasswordHasher): Promise<boolean> {
  if (await hasUsers(db)) return false
  const document = parseOrganisationText(demoOrganisationText()) as {
    users: { login: string; passwordHash?: string }[]
  }
  for (const user of document.users) {
    const password = DEMO_PASSWORDS[user.login]
    if (password !== undefined) user.passwordHash = await hasher.hash(password)
  }
  await createOrganisationAdmin({ db, hasher }).apply(document, { author: { userId: null, name: 'demo' } })
  return true
}

import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

// Node's built-ins only: vitest configurations load this file before any workspace package resolves.

/**
 * The publisher's own sample installation of Maarch Courrier 20.10 (GPL, kept outside the repository: see
 * its README): `MAILROOM_MAARCH_FIXTURES`, else `../shared/fixtures/maarch-20.10` beside the repository.
 */
export const PUBLISHER_FIXTURES_VARIABLE = 'MAILROOM_MAARCH_FIXTURES'

/** Where the publisher's sample installation is looked for. */
export function publisherFixturesLocation(): string {
  return (
    process.env[PUBLISHER_FIXTURES_VARIABLE] ||
    fileURLToPath(new URL('../../../../shared/fixtures/maarch-20.10', import.meta.url))
  )
}

/** The publisher's sample installation, or null where this machine has none (its tests are then skipped). */
export function publisherFixtures(): string | null {
  const location = publisherFixturesLocation()
  return existsSync(join(location, 'sql', 'structure.sql')) ? location : null
}

/**
 * For a vitest configuration: says once, in one line, that the tests on the publisher's installation are
 * skipped when it is absent, or, with CI=true, stops the run naming what is missing (CI never passes by
 * skipping them).
 */
export function announcePublisherFixtures(): void {
  if (publisherFixtures() !== null) return
  const missing = `the publisher's Maarch 20.10 sample installation is not at ${publisherFixturesLocation()} (set ${PUBLISHER_FIXTURES_VARIABLE}, or put it at ../shared/fixtures/maarch-20.10 beside the repository)`
  if (process.env.CI === 'true' || process.env.CI === '1') throw new Error(`CI must run every test: ${missing}`)
  const memo = globalThis as { mailroomPublisherFixturesAnnounced?: boolean }
  if (memo.mailroomPublisherFixturesAnnounced) return
  memo.mailroomPublisherFixturesAnnounced = true
  process.stderr.write(`the tests on the publisher's Maarch sample installation are skipped: ${missing}\n`)
}

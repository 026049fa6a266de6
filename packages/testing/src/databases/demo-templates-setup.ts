import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'
import { DEMO_TEMPLATES_ENV, postgresAdminUrl, postgresTemplateName, TEMPLATE_CONTENTS } from './demo-template-names.js'

/** A new folder for a run's demo templates (demo-templates.ts): each test Mailroom of the run starts from a copy. */
export function createDemoTemplatesFolder(): Promise<string> {
  return mkdtemp(join(tmpdir(), 'mailroom-templates-'))
}

/** Removes a run's templates: the folder (the PGlite tarballs) and the PostgreSQL templates it names. */
export async function removeDemoTemplates(folder: string, adminUrl: string = postgresAdminUrl()): Promise<void> {
  await rm(folder, { recursive: true, force: true })
  const admin = new pg.Client({ connectionString: adminUrl })
  try {
    await admin.connect()
    for (const contents of TEMPLATE_CONTENTS)
      await admin.query(`drop database if exists ${postgresTemplateName(folder, contents)} with (force)`)
  } catch {
    // No PostgreSQL in this run (a PGlite-only package run): there is no template to drop.
  } finally {
    await admin.end().catch(() => {})
  }
}

/**
 * Vitest global setup of the packages whose tests run on both databases: a folder for this run's demo
 * templates, handed to the test workers through the environment, removed at the end with the PostgreSQL
 * template it names. Vitest may call it once per project: the first call owns the folder. Under `npm test` the
 * folder is the whole run's (scripts/bootstrap.mjs makes it before the first package and removes it after the
 * last), so the demo is migrated and loaded once per database kind for every package, not once per package.
 */
export default async function setup(): Promise<() => Promise<void>> {
  if (process.env[DEMO_TEMPLATES_ENV]) return async () => {}
  const folder = await createDemoTemplatesFolder()
  process.env[DEMO_TEMPLATES_ENV] = folder
  return async () => {
    delete process.env[DEMO_TEMPLATES_ENV]
    await removeDemoTemplates(folder)
  }
}

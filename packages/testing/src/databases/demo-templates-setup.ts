import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'
import { DEMO_TEMPLATES_ENV, postgresAdminUrl, postgresTemplateName } from './demo-template-names.js'

/**
 * Vitest global setup of the packages whose tests run on both databases: a folder for this run's demo
 * templates (demo-templates.ts), handed to the test workers through the environment, removed at the end with
 * the PostgreSQL template it names. Vitest may call it once per project: the first call owns the folder.
 */
export default async function setup(): Promise<() => Promise<void>> {
  if (process.env[DEMO_TEMPLATES_ENV]) return async () => {}
  const folder = await mkdtemp(join(tmpdir(), 'mailroom-templates-'))
  process.env[DEMO_TEMPLATES_ENV] = folder
  return async () => {
    delete process.env[DEMO_TEMPLATES_ENV]
    await rm(folder, { recursive: true, force: true })
    const admin = new pg.Client({ connectionString: postgresAdminUrl() })
    try {
      await admin.connect()
      await admin.query(`drop database if exists ${postgresTemplateName(folder)} with (force)`)
    } catch {
      // No PostgreSQL in this run (a PGlite-only package run): there is no template to drop.
    } finally {
      await admin.end().catch(() => {})
    }
  }
}

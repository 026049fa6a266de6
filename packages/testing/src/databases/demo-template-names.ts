import { basename } from 'node:path'

// What the run's global setup (demo-templates-setup.ts) needs, apart from the templates themselves: vitest's
// main process loads the setup through its module runner, and importing Mailroom and PGlite there cost about
// 12 s of CPU per package run, before any test.

/**
 * Where a test run keeps its demo templates: a folder made by `npm test` for the whole suite (scripts/bootstrap.mjs),
 * else by the run's global setup (`demo-templates-setup.ts`). Unset (a test file run some other way), every test
 * database is built from scratch.
 */
export const DEMO_TEMPLATES_ENV = 'MAILROOM_TEST_DEMO_TEMPLATES'

/**
 * What a run's template holds: `demo`, the migrated database with the demo dataset loaded; `empty`, migrated and
 * nothing else, for the test Mailrooms that ask for no demo (an importer's target, an organisation applied from
 * scratch), each of which migrated a database of its own (about 5 s of CPU on PGlite).
 */
export const TEMPLATE_CONTENTS = ['demo', 'empty'] as const
export type TemplateContents = (typeof TEMPLATE_CONTENTS)[number]

/**
 * A PostgreSQL template database of this run (one per run folder and contents, so two runs at once never share
 * one).
 */
export function postgresTemplateName(folder: string, contents: TemplateContents): string {
  const run = basename(folder)
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '')
  return contents === 'demo' ? `mailroom_tpl_${run}` : `mailroom_tpl_${run}_${contents}`
}

/** The PostgreSQL server of the tests: where they create their databases. */
export function postgresAdminUrl(): string {
  return process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test'
}

#!/usr/bin/env node
// Writes organisation.schema.json (the JSON Schema of organisation documents, generated from core's zod
// schema) at the repository root, from the built core package (run after `turbo run build`).
// `node scripts/write-organisation-schema.mjs --check` fails instead when the file is missing or out of date.
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const entry = join(root, 'packages/core/dist/index.js')
const target = join(root, 'organisation.schema.json')

if (!existsSync(entry)) {
  console.error(`write-organisation-schema: ${entry} is missing; run the build first (pnpm build)`)
  process.exit(1)
}
const { organisationJsonSchema } = await import(pathToFileURL(entry).href)
const text = `${JSON.stringify(organisationJsonSchema(), null, 2)}\n`

if (process.argv.includes('--check')) {
  const current = existsSync(target) ? readFileSync(target, 'utf8') : ''
  if (current !== text) {
    console.error(
      'write-organisation-schema: organisation.schema.json is out of date; run `node scripts/write-organisation-schema.mjs` after a build',
    )
    process.exit(1)
  }
  console.log('write-organisation-schema: organisation.schema.json is up to date')
} else {
  writeFileSync(target, text)
  console.log(`write-organisation-schema: wrote ${target}`)
}

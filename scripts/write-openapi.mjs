#!/usr/bin/env node
// Writes the OpenAPI 3.1 document that GET /rest/openapi.json serves to openapi.json at the repository root,
// from the built http-koa package (run after `turbo run build`; no TypeScript loader needed).
// `node scripts/write-openapi.mjs --check` fails instead when the file on disk is missing or out of date.
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const entry = join(root, 'packages/http-koa/dist/index.js')
const target = join(root, 'openapi.json')

if (!existsSync(entry)) {
  console.error(`write-openapi: ${entry} is missing; run the build first (pnpm build)`)
  process.exit(1)
}
const { createOpenApiDocument } = await import(pathToFileURL(entry).href)
if (typeof createOpenApiDocument !== 'function') {
  console.error('write-openapi: @mailroom/http-koa does not export createOpenApiDocument')
  process.exit(1)
}
const document = createOpenApiDocument()
const text = `${JSON.stringify(document, null, 2)}\n`

if (process.argv.includes('--check')) {
  const current = existsSync(target) ? readFileSync(target, 'utf8') : ''
  if (current !== text) {
    console.error('write-openapi: openapi.json is out of date; run `node scripts/write-openapi.mjs` after a build')
    process.exit(1)
  }
  console.log('write-openapi: openapi.json is up to date')
} else {
  writeFileSync(target, text)
  console.log(`write-openapi: wrote ${target} (${Object.keys(document.paths ?? {}).length} paths)`)
}

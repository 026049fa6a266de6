#!/usr/bin/env node
import { mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { runEmbedExample } from './embed-example.js'

// `node dist/main.js [database]`: a PostgreSQL URL, a PGlite directory, or an in-memory PGlite by default.
const database = process.argv[2] ?? 'memory://'
const docserverDir = await mkdtemp(join(tmpdir(), 'mailroom-embed-'))
const outcome = await runEmbedExample({ database, docserverDir, secret: 'example-secret-not-for-production' })
console.log(JSON.stringify(outcome, null, 2))

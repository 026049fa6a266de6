import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { SETTINGS, settingsHelp } from './settings.js'

const root = fileURLToPath(new URL('../../../', import.meta.url))
const names = SETTINGS.map((s) => s.name)

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return entry.name === 'testing' ? [] : sources(path)
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : []
  })
}

describe('settings', () => {
  it('lists every MAILROOM_* variable the server, mailroom, storage and documents read, and nothing they do not', () => {
    const read = new Set<string>()
    const dirs = [
      'apps/server/src',
      'packages/mailroom/src',
      'packages/storage/src',
      'packages/object-store/src',
      'packages/documents/src',
    ]
    for (const file of dirs.flatMap((dir) => sources(join(root, dir)))) {
      if (file === join(root, 'apps/server/src/settings.ts')) continue
      for (const [name] of readFileSync(file, 'utf8').matchAll(/\bMAILROOM_[A-Z0-9_]*[A-Z0-9]\b/g)) read.add(name)
    }
    read.delete('MAILROOM_PG_TYPES') // storage's type parsers, not a variable
    expect([...read].sort()).toEqual(names.filter((n) => n.startsWith('MAILROOM_')).sort())
  })

  it('has one row per setting in the table of docs/settings.md', () => {
    const page = readFileSync(join(root, 'docs/settings.md'), 'utf8')
    const rows = [...page.matchAll(/^\| `([A-Z0-9_]+)` \|/gm)].map(([, name]) => name)
    expect(rows).toEqual(names)
  })

  it('are all in `mailroom help`, with their defaults', () => {
    const help = settingsHelp()
    for (const s of SETTINGS) expect(help).toContain(`${s.name}`)
    expect(help).toMatch(/MAILROOM_SOFFICE +path of LibreOffice's soffice/)
    expect(help).toMatch(/MAILROOM_PG_POOL_SIZE +PostgreSQL connections per server \(default: 10\)/)
  })
})

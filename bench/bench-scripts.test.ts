import { readFile } from 'node:fs/promises'
import { describe, expect, it } from 'vitest'
import config from './tsup.config.js'

describe('pnpm bench', () => {
  it('runs the create, search, search-scale, criteria search, baskets, content, auth-flood, directory sign-in, Maarch import, full-text creates and full-text queue benchmarks, each an entry tsup builds', async () => {
    const manifest = JSON.parse(await readFile(new URL('./package.json', import.meta.url), 'utf8')) as {
      scripts: Record<string, string>
    }
    const run = [...manifest.scripts.bench!.matchAll(/node dist\/([\w-]+)\.js/g)].map((m) => m[1])
    expect(run).toEqual([
      'create-bench',
      'search-bench',
      'search-scale-bench',
      'criteria-search-bench',
      'baskets-bench',
      'content-bench',
      'auth-flood-bench',
      'directory-sign-in-bench',
      'import-maarch-bench',
      'fulltext-creates-bench',
      'fulltext-queue-bench',
    ])
    const entries = (config as { entry: string[] }).entry.map((e) => e.replace(/\.ts$/, ''))
    expect(entries).toEqual(expect.arrayContaining(run))
  })
})

import { execFileSync } from 'node:child_process'
import { dirname, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../../..')
const TSC = join(ROOT, 'node_modules/.bin/tsc')

function trackedTypeScript(): string[] {
  return execFileSync('git', ['ls-files', '*.ts', '*.mts', '*.cts'], { cwd: ROOT, encoding: 'utf8' })
    .split('\n')
    .filter((file) => file !== '')
    .sort()
}

function filesOf(tsconfig: string): Set<string> {
  const listed = execFileSync(TSC, ['-p', tsconfig, '--listFilesOnly'], { cwd: ROOT, encoding: 'utf8' })
  return new Set(
    listed
      .split('\n')
      .filter((file) => file !== '' && !file.includes('/node_modules/'))
      .map((file) => relative(ROOT, file)),
  )
}

// `pnpm typecheck` and `npm test` check the Node side as one program (the root tsconfig.json) and the console's
// browser application with its own settings: a package, a test or a script added outside both would never be checked.
describe('the typecheck', () => {
  it('reads every TypeScript file of the repository: the root program, or the console application', () => {
    const checked = new Set([...filesOf('tsconfig.json'), ...filesOf('apps/console/tsconfig.json')])
    const unchecked = trackedTypeScript().filter((file) => !checked.has(file))
    expect(unchecked).toEqual([])
  })

  it('reads the console application with the browser settings, its tests with the Node ones', () => {
    const browser = filesOf('apps/console/tsconfig.json')
    expect([...browser].some((file) => file.endsWith('.tsx'))).toBe(true)
    expect([...browser].filter((file) => file.endsWith('.test.ts'))).toEqual([])
    expect([...filesOf('tsconfig.json')].filter((file) => file.startsWith('apps/console/'))).toContain(
      'apps/console/vitest.config.ts',
    )
  })
})

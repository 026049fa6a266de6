import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..')

// Home and work folders of a particular machine. Built from parts so this file does not match itself.
const slash = '/'
export const MACHINE_PATH = new RegExp(
  [
    `(?:^|[\\s'"\`(=:])${slash}(?:work|root)${slash}[\\w.-]`,
    `${slash}home${slash}[a-z_][\\w-]*${slash}`,
    `${slash}Users${slash}[A-Za-z][\\w .-]*${slash}`,
    `[A-Za-z]:\\\\Users\\\\`,
  ].join('|'),
)

describe('no absolute path of a machine in the repository', () => {
  it('recognises such paths and leaves others alone', () => {
    for (const path of [
      `cd ${slash}work${slash}main`,
      `"${slash}root${slash}.cache"`,
      `${slash}home${slash}alice${slash}x`,
      `${slash}Users${slash}bob${slash}src`,
      'C:\\Users\\carol\\repo',
    ]) {
      expect(path).toMatch(MACHINE_PATH)
    }
    for (const path of [
      '/tmp/x',
      '/usr/lib/libreoffice',
      'https://example.org/root/a',
      '../shared/fixtures',
      '/srv/mailroom/docservers',
    ]) {
      expect(path).not.toMatch(MACHINE_PATH)
    }
  })

  it('holds none in any tracked file (sources, docs, fixtures, binary samples)', () => {
    const files = execFileSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8' }).split('\0').filter(Boolean)
    expect(files.length).toBeGreaterThan(100)
    const offenders = files.flatMap((file) => {
      let text: string
      try {
        text = readFileSync(join(root, file), 'latin1')
      } catch {
        return [] // deleted in the work tree, not yet committed
      }
      const match = MACHINE_PATH.exec(text)
      return match ? [`${file}: ${match[0].trim()}`] : []
    })
    expect(offenders).toEqual([])
  })
})

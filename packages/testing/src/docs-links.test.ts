import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..')

/** The pages readers follow links between: the README, the repository's top-level pages and docs/ (generated docs/api excluded). */
function pages(): string[] {
  const top = ['README.md', 'CONTRIBUTING.md', 'SECURITY.md', 'CHANGELOG.md'].filter((name) =>
    existsSync(join(root, name)),
  )
  const docs = readdirSync(join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`)
  return [...top, ...docs]
}

/** GitHub's anchor of a heading: lower case, punctuation dropped (letters of any script kept), spaces to hyphens. */
function headingAnchor(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-')
}

function anchorsOf(markdown: string): Set<string> {
  const outsideCode = markdown.replace(/^```[\s\S]*?^```$/gm, '')
  return new Set([...outsideCode.matchAll(/^#{1,6} (.+)$/gm)].map(([, heading]) => headingAnchor(heading!)))
}

/** Relative links of a page, outside code blocks and inline code: [text](target). */
function linksOf(markdown: string): string[] {
  const prose = markdown.replace(/^```[\s\S]*?^```$/gm, '').replace(/`[^`\n]*`/g, '')
  return [...prose.matchAll(/\]\(([^)\s]+)\)/g)]
    .map(([, target]) => target!)
    .filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target))
}

describe('links between the documentation pages', () => {
  it('reads the headings the way GitHub anchors them', () => {
    expect(headingAnchor('Metrics and alerts')).toBe('metrics-and-alerts')
    expect(headingAnchor('Register a letter: `POST /rest/resources`')).toBe('register-a-letter-post-restresources')
    expect(headingAnchor('Signing keys and rotation')).toBe('signing-keys-and-rotation')
  })

  it('every relative link of README.md and docs/*.md reaches a file, and its #anchor a heading there', () => {
    const broken: string[] = []
    for (const page of pages()) {
      const text = readFileSync(join(root, page), 'utf8')
      for (const link of linksOf(text)) {
        const [path = '', anchor] = link.split('#')
        const target = path === '' ? join(root, page) : join(root, dirname(page), decodeURIComponent(path))
        if (!existsSync(target)) {
          broken.push(`${page}: ${link} (no ${relative(root, target)})`)
          continue
        }
        if (
          anchor &&
          statSync(target).isFile() &&
          target.endsWith('.md') &&
          !anchorsOf(readFileSync(target, 'utf8')).has(anchor)
        ) {
          broken.push(`${page}: ${link} (no heading #${anchor})`)
        }
      }
    }
    expect(broken).toEqual([])
  })

  it('keeps the README short: the details live in docs/', () => {
    expect(readFileSync(join(root, 'README.md'), 'utf8').split('\n').length).toBeLessThanOrEqual(150)
  })
})

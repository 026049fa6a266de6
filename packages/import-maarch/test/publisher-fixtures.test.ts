import { afterEach, describe, expect, it, vi } from 'vitest'
import { announcePublisherFixtures, publisherFixtures } from './publisher-fixtures.js'

const memo = globalThis as { mailroomPublisherFixturesAnnounced?: boolean }

afterEach(() => {
  vi.unstubAllEnvs()
  vi.restoreAllMocks()
  delete memo.mailroomPublisherFixturesAnnounced
})

describe("the publisher's sample installation, outside the repository", () => {
  it('is skipped where absent, saying so in one line however often the configuration is loaded', () => {
    vi.stubEnv('MAILROOM_MAARCH_FIXTURES', '/nonexistent/maarch-20.10')
    vi.stubEnv('CI', '')
    const written: string[] = []
    vi.spyOn(process.stderr, 'write').mockImplementation((text) => written.push(String(text)) > 0)
    expect(publisherFixtures()).toBeNull()
    announcePublisherFixtures()
    announcePublisherFixtures()
    expect(written).toEqual([
      "the tests on the publisher's Maarch sample installation are skipped: the publisher's Maarch 20.10 sample installation is not at /nonexistent/maarch-20.10 (set MAILROOM_MAARCH_FIXTURES, or put it at ../shared/fixtures/maarch-20.10 beside the repository)\n",
    ])
  })

  it('fails the run under CI=true, naming what is missing, so CI never passes by skipping', () => {
    vi.stubEnv('MAILROOM_MAARCH_FIXTURES', '/nonexistent/maarch-20.10')
    vi.stubEnv('CI', 'true')
    expect(() => announcePublisherFixtures()).toThrow(
      /^CI must run every test: the publisher's Maarch 20\.10 sample installation is not at \/nonexistent\/maarch-20\.10/,
    )
  })
})

import { createMailroom, type Mailroom } from '@mailroom/mailroom'
import { TEST_PASSWORD_HASHER, TEST_SECRET } from '@mailroom/testing'

/**
 * A Mailroom on `url` for a query benchmark: the demo loaded (cheap test hashes), no extraction workers and no
 * throttling, so that only the queries are measured.
 */
export function queryBenchMailroom(url: string, docserverDir: string): Promise<Mailroom> {
  return createMailroom({
    database: url,
    docserverDir,
    secret: TEST_SECRET,
    passwordHasher: TEST_PASSWORD_HASHER,
    demo: true,
    fulltext: { workers: 0 },
    throttle: false,
  })
}

// The container image test (apps/server/test/container-image.test.ts) as `npm test` runs it: in a vitest run of
// its own, beside the build and the suite (scripts/bootstrap.mjs), not as one more file of the suite. It lasts
// minutes, most of them waiting on podman, apt, dpkg and the network: inside the suite it would hold one of the
// two workers that long; beside it, the suite keeps both and the test takes what the cores leave.
import { join } from 'node:path'

/** The test file, from the repository's root; vitest.suite.config.ts leaves it out of the suite for this run. */
export const IMAGE_TEST_FILE = 'apps/server/test/container-image.test.ts'

export const IMAGE_TEST_SKIPPED =
  'the container image test is skipped: CI runs it; set MAILROOM_IMAGE_TEST=1 to run it beside the suite'

/** CI runs it (MAILROOM_IMAGE_TEST=0 leaves it out); elsewhere MAILROOM_IMAGE_TEST=1 asks for it. */
export function imageTestWanted(environment = process.env) {
  const asked = environment.MAILROOM_IMAGE_TEST
  if (asked === '1' || asked === '0') return asked === '1'
  return environment.CI === 'true' || environment.CI === '1'
}

/**
 * Starts the image test with `startBeside` (bootstrap's: output kept and printed when it ends) in the server's
 * folder, on its PGlite project, where the file runs once (it opens its own PostgreSQL database). Its JSON report
 * joins the suite's in `MAILROOM_TEST_REPORT_DIR`, so the closing line counts it.
 */
export function startImageTest(root, env, startBeside) {
  const vitest = join(root, 'node_modules/vitest/vitest.mjs')
  return startBeside([vitest, 'run', '--project', 'pglite', IMAGE_TEST_FILE.replace('apps/server/', '')], {
    cwd: join(root, 'apps/server'),
    // The s3 project is not run here: no need to ask for the Ceph gateway that may still be starting.
    env: { ...env, MAILROOM_IMAGE_TEST: '1', MAILROOM_SKIP_CEPH: '1' },
  })
}

import { mailroomVitestConfig } from '../../vitest.shared.ts'
import { announceCaptureClient } from './test/capture-client/capture-client.ts'

// The capture-client test (test/capture-client.test.ts) needs the real client's class beside the repository and the
// Python scripts/install-capture-python.sh installs: skipped where either is missing, saying so here once; with
// CI=true their absence fails the run.
announceCaptureClient()

export default mailroomVitestConfig({
  databases: 'both',
  databaseFree: [
    'src/demo-policy.test.ts',
    'src/settings/settings.test.ts',
    'src/module-layout.test.ts',
    'src/embedded/database-lock.test.ts',
    'src/embedded/operator-channel.test.ts',
    'src/content-settings.test.ts',
    'src/commands/docserver-copy.test.ts',
    'src/metrics/metrics-settings.test.ts',
    'test/browser/cors-in-a-browser.test.ts',
    'test/browser/web-client-in-a-browser.test.ts',
    'src/logging.test.ts',
    'test/log-secrets.test.ts',
    'test/slow-clients.test.ts',
    'test/mailroom-command.test.ts',
    'test/container-image.test.ts',
    'test/deploy-files.test.ts',
  ],
  // The delta import and --verify on PGlite are packages/import-maarch's tests (src/delta/, src/verify/), on
  // both databases; here the command line around them (flags, exit codes, output), the same on both. Likewise
  // `org` and `user` (packages/storage's organisation tests) and `journal verify` (its verify-journal tests). The
  // command line on the embedded database has tests of its own here, on PGlite: cli.test.ts (migrate, demo,
  // token) and embedded-writer.test.ts (org, user and token commands beside a running server, and without one).
  // The import command, `fulltext` and `user sync` likewise: their database work is import-maarch's, storage's and
  // directory's, tested there on both; here the command line, on PostgreSQL. (A killed import's rerun stays on
  // both: what a SIGKILL leaves of an embedded database on disk is PGlite's own.)
  postgresOnly: [
    'src/commands/import-maarch-command.test.ts',
    'src/commands/fulltext-commands.test.ts',
    'src/commands/user-sync-command.test.ts',
    'src/commands/import-maarch-delta-command.test.ts',
    'src/commands/import-maarch-verify.test.ts',
    'src/commands/organisation-commands.test.ts',
    'src/commands/journal-verify.test.ts',
  ],
})

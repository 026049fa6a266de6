#!/usr/bin/env bash
# The smoke run of what `npm test` built, on whatever Node runs it (CI: the oldest supported release, Node 22,
# through scripts/node-release.mjs; scripts/bootstrap.mjs starts it beside the suite when MAILROOM_SMOKE_NODE
# names a release): the README's and the tour's commands against the built `mailroom` serving (creates,
# searches; the guides' longer command lists run in the suite), and the SDK's tour (create, search, PDF).
set -euo pipefail
cd "$(dirname "$0")/.."
echo "smoke: $(node --version)"
pnpm --filter @mailroom/server exec vitest run --project postgres test/docs-commands.test.ts -t "README.md|tour.md"
pnpm --filter @mailroom/sdk exec vitest run src/tour.test.ts

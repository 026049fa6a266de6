// Types of scripts/image-test.mjs, for the TypeScript that imports it (vitest.suite.config.ts, its tests).
export const IMAGE_TEST_FILE: string
export const IMAGE_TEST_SKIPPED: string
export function imageTestWanted(environment?: Record<string, string | undefined>): boolean
export function startImageTest(
  root: string,
  env: Record<string, string | undefined>,
  startBeside: (
    args: string[],
    options: { cwd: string; env: Record<string, string | undefined> },
  ) => { finished(): Promise<number> },
): { finished(): Promise<number> }

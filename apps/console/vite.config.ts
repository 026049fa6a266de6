import { defineConfig } from 'vite'

/**
 * The console builds to static files under a relative base, so the same dist/ works at /console on the
 * Mailroom server and under any path of another web server. Workspace packages resolve to their built
 * output (no "source" condition), as a frontend team installing @mailroom/sdk from npm would get it.
 */
export default defineConfig({
  base: './',
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: 'dist',
    target: 'es2022',
    sourcemap: false,
    chunkSizeWarningLimit: 1200,
  },
})

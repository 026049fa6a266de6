import { defineConfig } from 'tsup'

export default defineConfig({
  entry: [
    'create-bench.ts',
    'attachment-create-bench.ts',
    'content-bench.ts',
    'search-bench.ts',
    'soak.ts',
    'http-load.ts',
    'organisation-bench.ts',
    'pdf-lib-compare.ts',
    'import-maarch-bench.ts',
    'import-maarch-verify-bench.ts',
    'object-store-bench.ts',
    'search-scale-bench.ts',
    'criteria-search-bench.ts',
    'auth-flood-bench.ts',
    'directory-sign-in-bench.ts',
    'chain-verification-bench.ts',
    'latency-proxy.ts',
    'fulltext-bench.ts',
  ],
  format: ['esm'],
  target: 'node22',
  dts: false,
  sourcemap: true,
  clean: true,
})

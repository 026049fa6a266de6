import { defineConfig, type Options } from 'tsup'

/**
 * tsup settings of every publishable package: ESM for Node 22 (the oldest supported release), each import of another package (ours
 * included) left as an import so a package never ships a copy of its dependencies, a clean dist, and no
 * source maps (they would point at sources the package does not ship).
 */
export function mailroomTsupConfig(entry: string[]): Options | Options[] {
  return defineConfig({
    entry,
    format: ['esm'],
    target: 'node22',
    dts: false,
    sourcemap: false,
    clean: true,
    skipNodeModulesBundle: true,
  }) as Options
}

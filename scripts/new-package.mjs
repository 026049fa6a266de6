// One-off generator kept for adding packages with the same layout.
import { writeFileSync, mkdirSync } from 'node:fs'
const [dir, name, deps = '{}', devDeps = '{}', extra = '{}'] = process.argv.slice(2)
mkdirSync(`${dir}/src`, { recursive: true })
const pkg = {
  name,
  version: '0.1.0',
  private: false,
  type: 'module',
  sideEffects: false,
  license: 'Apache-2.0',
  engines: { node: '>=20.19' },
  exports: { '.': { source: './src/index.ts', types: './dist/index.d.ts', default: './dist/index.js' } },
  main: './dist/index.js',
  types: './dist/index.d.ts',
  files: ['dist'],
  scripts: {
    build: 'tsup && tsc -p tsconfig.build.json',
    typecheck: 'tsc -p tsconfig.json --noEmit',
    lint: 'biome lint src',
    test: 'vitest run',
  },
  dependencies: JSON.parse(deps),
  devDependencies: JSON.parse(devDeps),
  ...JSON.parse(extra),
}
writeFileSync(`${dir}/package.json`, JSON.stringify(pkg, null, 2) + '\n')
writeFileSync(`${dir}/tsconfig.json`, JSON.stringify({ extends: '../../tsconfig.base.json', compilerOptions: { noEmit: true }, include: ['src', 'test', '*.ts'] }, null, 2) + '\n')
writeFileSync(`${dir}/tsconfig.build.json`, JSON.stringify({ extends: '../../tsconfig.base.json', compilerOptions: { rootDir: 'src', outDir: 'dist', emitDeclarationOnly: true, customConditions: [] }, include: ['src'], exclude: ['src/**/*.test.ts', 'src/**/test-*.ts'] }, null, 2) + '\n')
writeFileSync(`${dir}/tsup.config.ts`, `import { defineConfig } from 'tsup'\n\nexport default defineConfig({\n  entry: ['src/index.ts'],\n  format: ['esm'],\n  target: 'node20',\n  dts: false,\n  sourcemap: true,\n  clean: false,\n})\n`)

// Adds a package with the workspace's layout: `node scripts/new-package.mjs packages/<dir> @mailroom/<name>
// [deps-json] [dev-deps-json] [extra-json]` (CONTRIBUTING.md, "Adding a package").
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'

const [dir, name, deps = '{}', devDeps = '{}', extra = '{}'] = process.argv.slice(2)
mkdirSync(`${dir}/src`, { recursive: true })
const pkg = {
  name,
  version: '0.1.0',
  private: false,
  type: 'module',
  sideEffects: false,
  license: 'Apache-2.0',
  engines: { node: '^22.12 || ^24 || >=26' },
  description: '',
  repository: { ...JSON.parse(readFileSync('package.json', 'utf8')).repository, directory: dir },
  exports: { '.': { source: './src/index.ts', types: './dist/index.d.ts', default: './dist/index.js' } },
  main: './dist/index.js',
  types: './dist/index.d.ts',
  files: ['dist/**/*.js', 'dist/**/*.d.ts', 'NOTICE'],
  publishConfig: { access: 'public', exports: { '.': { types: './dist/index.d.ts', default: './dist/index.js' } } },
  scripts: {
    build: 'tsup && tsc -p tsconfig.build.json',
    lint: 'biome lint src',
    test: 'vitest run',
  },
  dependencies: JSON.parse(deps),
  devDependencies: JSON.parse(devDeps),
  ...JSON.parse(extra),
}
writeFileSync(`${dir}/package.json`, `${JSON.stringify(pkg, null, 2)}\n`)
writeFileSync(
  `${dir}/tsconfig.json`,
  `${JSON.stringify(
    { extends: '../../tsconfig.base.json', compilerOptions: { noEmit: true }, include: ['src', 'test', '*.ts'] },
    null,
    2,
  )}\n`,
)
writeFileSync(
  `${dir}/tsconfig.build.json`,
  `${JSON.stringify(
    {
      extends: '../../tsconfig.base.json',
      compilerOptions: { rootDir: 'src', outDir: 'dist', emitDeclarationOnly: true, customConditions: [] },
      include: ['src'],
      exclude: ['src/**/*.test.ts', 'src/**/test-*.ts'],
    },
    null,
    2,
  )}\n`,
)
writeFileSync(
  `${dir}/tsup.config.ts`,
  `import { mailroomTsupConfig } from '../../tsup.shared.ts'\n\nexport default mailroomTsupConfig(['src/index.ts'])\n`,
)
writeFileSync(`${dir}/README.md`, `# ${name}\n\nESM only, Node ≥ 22.12. Apache-2.0.\n\n## Public API\n`)
for (const file of ['LICENSE', 'NOTICE']) copyFileSync(file, `${dir}/${file}`)

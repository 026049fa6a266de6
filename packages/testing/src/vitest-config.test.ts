import { describe, expect, it } from 'vitest'
import { mailroomVitestConfig } from '../../../vitest.shared.ts'

interface ProjectTest {
  name: string
  include?: string[]
  exclude?: string[]
  env?: Record<string, string>
}

function projects(config: ReturnType<typeof mailroomVitestConfig>): Map<string, ProjectTest> {
  const listed = (config as { test?: { projects?: { test: ProjectTest }[] } }).test?.projects ?? []
  return new Map(listed.map((project) => [project.test.name, project.test]))
}

describe('the shared vitest configuration', () => {
  it('runs a worker’s test files in one module registry', () => {
    expect((mailroomVitestConfig({ databases: 'both' }) as { test: { isolate?: boolean } }).test.isolate).toBe(false)
    expect((mailroomVitestConfig() as { test: { isolate?: boolean } }).test.isolate).toBe(false)
  })

  it('leaves database-free files out of PostgreSQL and PostgreSQL-only files out of PGlite', () => {
    const byName = projects(
      mailroomVitestConfig({ databases: 'both', databaseFree: ['src/pure.test.ts'], postgresOnly: ['src/pg.test.ts'] }),
    )
    expect([...byName.keys()]).toEqual(['pglite', 'postgres'])
    expect(byName.get('pglite')!.exclude).toContain('src/pg.test.ts')
    expect(byName.get('pglite')!.exclude).not.toContain('src/pure.test.ts')
    expect(byName.get('postgres')!.exclude).toContain('src/pure.test.ts')
    expect(byName.get('postgres')!.exclude).not.toContain('src/pg.test.ts')
    expect(byName.get('pglite')!.env).toEqual({ MAILROOM_TEST_DB: 'pglite' })
    expect(byName.get('postgres')!.env).toEqual({ MAILROOM_TEST_DB: 'postgres' })
  })

  it('runs only the files named alsoOnPglite (and database-free ones) on PGlite, every file on PostgreSQL', () => {
    const byName = projects(
      mailroomVitestConfig({
        databases: 'both',
        include: ['src/**/*.test.ts'],
        databaseFree: ['src/pure.test.ts'],
        alsoOnPglite: ['src/core-path.test.ts'],
      }),
    )
    expect(byName.get('pglite')!.include).toEqual(['src/pure.test.ts', 'src/core-path.test.ts'])
    expect(byName.get('postgres')!.include).toEqual(['src/**/*.test.ts'])
    expect(byName.get('postgres')!.exclude).toContain('src/pure.test.ts')
  })

  it('runs every file on PGlite and only the files named alsoOnPostgres on PostgreSQL', () => {
    const byName = projects(
      mailroomVitestConfig({
        databases: 'both',
        include: ['src/**/*.test.ts'],
        alsoOnPostgres: ['src/end-to-end.test.ts'],
      }),
    )
    expect(byName.get('pglite')!.include).toEqual(['src/**/*.test.ts'])
    expect(byName.get('postgres')!.include).toEqual(['src/end-to-end.test.ts'])
  })

  it('still runs postgresOnly files on PostgreSQL beside alsoOnPostgres, and refuses both sides named at once', () => {
    const byName = projects(
      mailroomVitestConfig({
        databases: 'both',
        include: ['src/**/*.test.ts'],
        postgresOnly: ['src/server-only.test.ts'],
        alsoOnPostgres: ['src/end-to-end.test.ts'],
      }),
    )
    expect(byName.get('postgres')!.include).toEqual(['src/end-to-end.test.ts', 'src/server-only.test.ts'])
    expect(byName.get('pglite')!.exclude).toContain('src/server-only.test.ts')
    expect(() =>
      mailroomVitestConfig({ databases: 'both', alsoOnPglite: ['src/a.test.ts'], alsoOnPostgres: ['src/b.test.ts'] }),
    ).toThrow(/give one of them/)
  })

  it('runs every file on PGlite where alsoOnPglite is not given', () => {
    const byName = projects(mailroomVitestConfig({ databases: 'both', include: ['src/**/*.test.ts'] }))
    expect(byName.get('pglite')!.include).toEqual(['src/**/*.test.ts'])
  })
})

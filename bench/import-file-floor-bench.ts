/**
 * What the Maarch import's file work costs on this machine's file system, with no database (issue #37): the
 * sample records' files (the fixtures' PDFs, cycled) stored BENCH_FILES times, BENCH_JOBS at once, four ways,
 * each twice, interleaved, after a round not printed:
 *
 * - raw copy: `copyFile`, never fsynced (the import benchmark's raw baseline);
 * - durable copy: `copyFile`, then an fsync of the copy (the import benchmark's durable copy);
 * - document store: the file read, then `FolderDocumentStore.write` (the file created under its name, fsync,
 *   folder fsync shared, SHA-256): how Mailroom stores every file;
 * - import's file work: the same with the SHA-512 the import checks each original against Maarch's fingerprint.
 *
 * Prints files/s and the process's user and system CPU per file. The import stores two files a record (the
 * original and its converted PDF), so records/s are half the files/s. A floor of the import, not a test.
 *
 *   node --conditions=source --import tsx import-file-floor-bench.ts (from bench/)
 *   BENCH_FILES (default 6000), BENCH_JOBS (default 16: the import writes a batch's files at once),
 *   MAILROOM_MAARCH_FIXTURES (default ../shared/fixtures/maarch-20.10 from the repository)
 */
import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { copyFile, mkdir, mkdtemp, open, readdir, readFile, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { FolderDocumentStore } from '@mailroom/storage'

const FILES = Number(process.env.BENCH_FILES ?? 6000)
const JOBS = Number(process.env.BENCH_JOBS ?? 16)
const repository = resolve(import.meta.dirname, import.meta.dirname.endsWith('dist') ? '../..' : '..')
const fixtures = process.env.MAILROOM_MAARCH_FIXTURES ?? resolve(repository, '../shared/fixtures/maarch-20.10')

/** The fixtures' PDFs of 10 KB or more: the sample records' originals and converted versions. */
async function sampleFiles(): Promise<string[]> {
  const root = join(fixtures, 'docservers')
  const found: string[] = []
  for (const entry of await readdir(root, { recursive: true, withFileTypes: true })) {
    const path = join(entry.parentPath, entry.name)
    if (entry.isFile() && entry.name.endsWith('.pdf') && (await stat(path)).size >= 10_000) found.push(path)
  }
  return found.sort()
}

async function syncFolder(folder: string): Promise<void> {
  const handle = await open(folder, 'r')
  try {
    await handle.sync()
  } finally {
    await handle.close()
  }
}

type Way = (source: string, index: number, folder: string) => Promise<void>

const WAYS: Record<string, (folder: string) => Way> = {
  'raw copy': () => (source, index, folder) => copyFile(source, join(folder, `${index}.pdf`)),
  'durable copy': () => async (source, index, folder) => {
    const target = join(folder, `${index}.pdf`)
    await copyFile(source, target)
    const handle = await open(target, 'r+')
    try {
      await handle.sync()
    } finally {
      await handle.close()
    }
  },
  'document store': (folder) => {
    const store = new FolderDocumentStore(folder)
    return async (source, index) => {
      await store.write('store/', 'pdf', await readFile(source), new Date(Date.UTC(2020, index % 12)))
    }
  },
  "import's file work": (folder) => {
    const store = new FolderDocumentStore(folder)
    return async (source, index) => {
      const bytes = await readFile(source)
      createHash('sha512').update(bytes).digest('hex')
      await store.write('store/', 'pdf', bytes, new Date(Date.UTC(2020, index % 12)))
    }
  },
}

async function measure(name: string, sources: readonly string[], root: string): Promise<string> {
  const folder = join(root, name.replaceAll(/\W/g, '-'))
  await mkdir(folder, { recursive: true })
  const store = WAYS[name]!(folder)
  // Start from a clean page cache's worth of dirty pages: what an earlier way left unwritten is not this one's.
  execFileSync('sync')
  const cpu = process.cpuUsage()
  const started = performance.now()
  let next = 0
  await Promise.all(
    Array.from({ length: JOBS }, async () => {
      while (next < FILES) {
        const index = next++
        await store(sources[index % sources.length]!, index, folder)
      }
    }),
  )
  await syncFolder(folder)
  const seconds = (performance.now() - started) / 1000
  const used = process.cpuUsage(cpu)
  const perFile = (micros: number) => `${(micros / FILES).toFixed(0)} µs`
  return `${name.padEnd(20)} ${(FILES / seconds).toFixed(0).padStart(6)} files/s (${(FILES / seconds / 2).toFixed(0)} records/s)   user ${perFile(used.user)}, system ${perFile(used.system)} a file`
}

async function main(): Promise<void> {
  const sources = await sampleFiles()
  if (sources.length === 0) throw new Error(`no sample PDFs under ${fixtures}/docservers`)
  const sizes = await Promise.all(sources.map(async (s) => (await stat(s)).size))
  const mean = sizes.reduce((a, b) => a + b, 0) / sizes.length
  console.log(
    `The import's file work, ${FILES} files (${sources.length} samples of ${(mean / 1024).toFixed(0)} KB on average), ${JOBS} at once`,
  )
  const root = await mkdtemp(join(tmpdir(), 'mailroom-file-floor-'))
  try {
    // A first round unprinted: on ext4 the creations that follow a mass deletion (an earlier run's clean-up) skip
    // the freed inodes one by one for about a minute, and would charge it to whichever way came first.
    for (let round = 0; round < 3; round++)
      for (const name of Object.keys(WAYS)) {
        const line = await measure(name, sources, join(root, `${round}`))
        if (round > 0) console.log(`  ${line}`)
      }
  } finally {
    await rm(root, { recursive: true, force: true })
  }
}

await main()

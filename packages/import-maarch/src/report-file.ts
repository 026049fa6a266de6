import { type FileHandle, open, rename, rm } from 'node:fs/promises'
import type { AttachmentEntry, ImportReportSink, MaarchImportSummary, RecordEntry, ReportHeader } from './report.js'

type Section = 'none' | 'records' | 'attachments' | 'finished'

/**
 * The JSON report written to its file as the import goes, a page of records at a time, so nothing per record
 * stays in memory. It is built in `FILE.partial` and renamed to `FILE` once complete: a `FILE` that exists
 * is always whole, valid JSON; a run that crashed leaves its `.partial` (whole lines up to the crash) to read.
 *
 *   { "sourceVersion", "dryRun", "organisation",
 *     "records": [ one entry per record, in res_id order within each page ],
 *     "notImported": { "attachments": [...] },
 *     "interrupted", "resumed", "counts", "chronoCounters", "bytes", "cutoff" and a delta run's "delta" }
 */
export class JsonReportFile implements ImportReportSink {
  readonly #path: string
  readonly #handle: FileHandle
  #section: Section = 'none'
  #first = true

  private constructor(path: string, handle: FileHandle) {
    this.#path = path
    this.#handle = handle
  }

  static async create(path: string): Promise<JsonReportFile> {
    return new JsonReportFile(path, await open(`${path}.partial`, 'w'))
  }

  async begin(header: ReportHeader): Promise<void> {
    await this.#write(
      `{\n${field('sourceVersion', header.sourceVersion)},\n${field('dryRun', header.dryRun)},\n${field('organisation', header.organisation)},\n  "records": [`,
    )
    this.#section = 'records'
  }

  async records(entries: readonly RecordEntry[]): Promise<void> {
    await this.#items(entries)
  }

  async attachments(entries: readonly AttachmentEntry[]): Promise<void> {
    if (this.#section === 'records') {
      await this.#write(`${this.#first ? '' : '\n  '}],\n  "notImported": { "attachments": [`)
      this.#section = 'attachments'
      this.#first = true
    }
    await this.#items(entries)
  }

  /** Ends the document and gives it its name. */
  async finish(summary: MaarchImportSummary): Promise<void> {
    if (this.#section === 'none') await this.begin(summary)
    if (this.#section === 'records') await this.attachments([])
    const { interrupted, resumed, counts, chronoCounters, bytes, cutoff, delta } = summary
    const fields = [
      field('interrupted', interrupted),
      field('resumed', resumed),
      field('counts', counts),
      field('chronoCounters', chronoCounters),
    ]
    fields.push(field('bytes', bytes))
    if (cutoff !== undefined) fields.push(field('cutoff', cutoff))
    if (delta !== undefined) fields.push(field('delta', delta))
    await this.#write(`${this.#first ? '' : '\n  '}] },\n${fields.join(',\n')}\n}\n`)
    this.#section = 'finished'
    await this.#handle.sync()
    await this.#handle.close()
    await rename(`${this.#path}.partial`, this.#path)
  }

  /** Closes the file; unfinished, its `.partial` stays (removed when the run wrote nothing). */
  async close(): Promise<void> {
    if (this.#section === 'finished') return
    await this.#handle.close()
    if (this.#section === 'none') await rm(`${this.#path}.partial`, { force: true })
  }

  async #items(entries: readonly unknown[]): Promise<void> {
    if (entries.length === 0) return
    let text = ''
    for (const entry of entries) {
      text += `${this.#first ? '\n    ' : ',\n    '}${JSON.stringify(entry)}`
      this.#first = false
    }
    await this.#write(text)
  }

  async #write(text: string): Promise<void> {
    await this.#handle.write(text)
  }
}

const field = (name: string, value: unknown) => `  ${JSON.stringify(name)}: ${JSON.stringify(value)}`

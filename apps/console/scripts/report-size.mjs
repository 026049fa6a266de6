#!/usr/bin/env node
// Prints the size of the built console, gzipped, and writes it to dist/bundle-size.json: everything the
// browser loads, with pdf.js's worker apart (it loads only with the first PDF shown, in its own thread).
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { gzipSync } from 'node:zlib'

const dist = join(import.meta.dirname ?? new URL('.', import.meta.url).pathname, '..', 'dist')

function files(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? files(path) : [path]
  })
}

const sizes = files(dist)
  .filter((path) => !path.endsWith('bundle-size.json'))
  .map((path) => {
    const bytes = readFileSync(path)
    return { file: relative(dist, path), bytes: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length }
  })
const isWorker = (file) => /pdf\.worker/.test(file)
const isPdfJs = (file) => /pdf(\.min)?-[\w-]+\.(m?js)$/.test(file) && !isWorker(file)
const sum = (list) => list.reduce((n, s) => n + s.gzip, 0)
const report = {
  totalGzipWithoutWorker: sum(sizes.filter((s) => !isWorker(s.file))),
  appGzip: sum(sizes.filter((s) => !isWorker(s.file) && !isPdfJs(s.file))),
  pdfJsGzip: sum(sizes.filter((s) => isPdfJs(s.file))),
  workerGzip: sum(sizes.filter((s) => isWorker(s.file))),
  files: sizes,
}
writeFileSync(join(dist, 'bundle-size.json'), `${JSON.stringify(report, null, 2)}\n`)
const kb = (n) => `${(n / 1024).toFixed(1)} KB`
console.log(
  `console bundle, gzipped: ${kb(report.totalGzipWithoutWorker)} without pdf.js's worker ` +
    `(console ${kb(report.appGzip)}, pdf.js ${kb(report.pdfJsGzip)}); worker ${kb(report.workerGzip)}`,
)

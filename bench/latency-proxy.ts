/**
 * A TCP proxy that delays every chunk of the store's answers by a fixed time, run as its own process by the
 * object-storage bench: the store then answers as one in another building or region would (tens of
 * milliseconds away), while its CPU stays apart from Mailroom's. Requests pass at once; each answer chunk
 * leaves `delayMs` after it arrived, in order, so an answer's bytes all arrive about `delayMs` late.
 *
 *   node dist/latency-proxy.js TARGET_PORT DELAY_MS   prints `PORT` once it listens
 */
import { createConnection, createServer } from 'node:net'

const [targetPort, delayMs] = process.argv.slice(2).map(Number)
if (!targetPort || delayMs === undefined || Number.isNaN(delayMs)) {
  console.error('usage: latency-proxy TARGET_PORT DELAY_MS')
  process.exit(2)
}

const server = createServer((client) => {
  client.setNoDelay(true)
  const store = createConnection({ host: '127.0.0.1', port: targetPort, noDelay: true })
  client.pipe(store)
  // One timer per chunk keeps the order: timers of equal delay fire in the order they were set.
  store.on('data', (chunk: Buffer) => {
    setTimeout(() => {
      if (!client.destroyed) client.write(chunk)
    }, delayMs)
  })
  store.on('end', () => setTimeout(() => client.end(), delayMs))
  const drop = () => {
    client.destroy()
    store.destroy()
  }
  client.on('error', drop)
  store.on('error', drop)
  client.on('close', () => store.destroy())
})
server.listen(0, '127.0.0.1', () => {
  const address = server.address()
  console.log(typeof address === 'object' && address ? address.port : 0)
})

import { createConnection, createServer, type Socket } from 'node:net'

/** A TCP proxy in front of a store: a second address for it, and a store that hangs on demand. */
export interface StallingProxy {
  /** `http://127.0.0.1:PORT`: the proxy's address, to use as an S3 endpoint. */
  readonly endpoint: string
  /**
   * From now on the store hangs: connections, new and open, are accepted and read, but nothing goes through
   * either way. With `responseBytes`, requests reach the store and that many bytes of each connection's
   * answers come back before they stop (an answer whose headers and first bytes arrive, then nothing).
   */
  stall(options?: { responseBytes?: number }): void
  /** Everything held goes through, then traffic flows again (a network that heals). */
  release(): void
  /** Connections accepted so far. */
  readonly connections: number
  close(): Promise<void>
}

/** One direction of a connection: chunks pass, or wait while the proxy stalls (with an allowance of bytes). */
class Direction {
  readonly #held: Buffer[] = []
  #endHeld = false
  allowance = Number.POSITIVE_INFINITY

  constructor(readonly to: Socket) {}

  push(chunk: Buffer): void {
    if (this.#held.length === 0 && chunk.length <= this.allowance) {
      this.allowance -= chunk.length
      this.to.write(chunk)
      return
    }
    const passing = this.#held.length === 0 ? Math.max(0, this.allowance) : 0
    if (passing > 0) this.to.write(chunk.subarray(0, passing))
    this.allowance -= passing
    this.#held.push(chunk.subarray(passing))
  }

  end(): void {
    if (this.#held.length === 0 && this.allowance === Number.POSITIVE_INFINITY) this.to.end()
    else this.#endHeld = true
  }

  flow(): void {
    this.allowance = Number.POSITIVE_INFINITY
    for (const chunk of this.#held.splice(0)) this.to.write(chunk)
    if (this.#endHeld) this.to.end()
  }
}

/**
 * Starts a proxy on a loopback port forwarding every connection to `target` (`http://host:port`, the S3
 * gateway). Tests use it as a second address of the gateway (another endpoint for the same cluster) and to
 * make the store hang without stopping the gateway that other tests share.
 */
export async function startStallingProxy(target: string): Promise<StallingProxy> {
  const { hostname, port } = new URL(target)
  const open = new Set<{ up: Direction; down: Direction; client: Socket; upstream: Socket }>()
  let stalled: { responseBytes?: number } | null = null
  let accepted = 0

  const hold = (connection: { up: Direction; down: Direction }) => {
    const { responseBytes } = stalled!
    connection.up.allowance = responseBytes === undefined ? 0 : Number.POSITIVE_INFINITY
    connection.down.allowance = responseBytes ?? 0
  }

  const server = createServer((client) => {
    accepted++
    const upstream = createConnection({ host: hostname, port: Number(port) })
    const connection = { client, upstream, up: new Direction(upstream), down: new Direction(client) }
    if (stalled) hold(connection)
    open.add(connection)
    client.on('data', (chunk: Buffer) => connection.up.push(chunk))
    upstream.on('data', (chunk: Buffer) => connection.down.push(chunk))
    client.on('end', () => connection.up.end())
    upstream.on('end', () => connection.down.end())
    const drop = () => {
      open.delete(connection)
      client.destroy()
      upstream.destroy()
    }
    client.on('close', drop)
    upstream.on('close', drop)
    client.on('error', drop)
    upstream.on('error', drop)
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => resolve())
  })
  const address = server.address()
  if (address === null || typeof address === 'string') throw new Error('the proxy has no TCP address')

  return {
    endpoint: `http://127.0.0.1:${address.port}`,
    get connections() {
      return accepted
    },
    stall(options = {}) {
      stalled = options
      for (const connection of open) hold(connection)
    },
    release() {
      stalled = null
      for (const connection of open) {
        connection.up.flow()
        connection.down.flow()
      }
    },
    async close() {
      for (const connection of open) {
        connection.client.destroy()
        connection.upstream.destroy()
      }
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}

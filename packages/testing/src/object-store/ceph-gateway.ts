import { execFileSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { S3DocumentStore, type S3StoreOptions } from '@mailroom/mailroom'

/** How tests reach the S3 gateway: everything of S3StoreOptions but the bucket. */
export type GatewaySettings = Omit<S3StoreOptions, 'url'> & { readonly endpoint: string }

const SCRIPT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..', 'scripts', 'ceph-test-cluster.sh')

let found: GatewaySettings | null | undefined

/**
 * The S3 gateway the object-storage tests run against: the one the environment names (MAILROOM_S3_ENDPOINT
 * with AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY, as `npm test` sets after starting the cluster with
 * scripts/ceph-test-cluster.sh), else a cluster that script left running. Null, with one line on stderr
 * saying why, when there is none: the tests that need it are then skipped, never failed.
 */
export function cephGateway(): GatewaySettings | null {
  if (found !== undefined) return found
  let env: Record<string, string | undefined> = process.env
  if (!env.MAILROOM_S3_ENDPOINT) {
    try {
      const text = execFileSync('bash', [SCRIPT, 'env'], {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'ignore'],
        timeout: 10_000,
      })
      env = Object.fromEntries(
        text
          .trim()
          .split('\n')
          .map((line) => line.split('=', 2) as [string, string]),
      )
    } catch {
      process.stderr.write(
        'object-storage tests skipped: no Ceph gateway (start one with `bash scripts/ceph-test-cluster.sh start`)\n',
      )
      found = null
      return found
    }
  }
  const { MAILROOM_S3_ENDPOINT: endpoint, AWS_ACCESS_KEY_ID: accessKeyId, AWS_SECRET_ACCESS_KEY: secretAccessKey } = env
  if (!endpoint || !accessKeyId || !secretAccessKey) {
    process.stderr.write(
      'object-storage tests skipped: MAILROOM_S3_ENDPOINT is set without AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY\n',
    )
    found = null
    return found
  }
  found = {
    endpoint,
    region: env.MAILROOM_S3_REGION || 'us-east-1',
    forcePathStyle: env.MAILROOM_S3_FORCE_PATH_STYLE !== '0' && env.MAILROOM_S3_FORCE_PATH_STYLE !== 'false',
    credentials: { accessKeyId, secretAccessKey },
    // Tests stop the gateway on purpose: fail fast rather than wait out the production timeouts.
    connectTimeoutMs: 1_000,
    requestTimeoutMs: 10_000,
    maxAttempts: 2,
  }
  return found
}

/**
 * The keys of another account of the test gateway (`scripts/ceph-test-cluster.sh user NAME`, created once):
 * its buckets are its own, the first account's keys are refused there. Null when the cluster's script cannot
 * reach it (a gateway named by the environment alone).
 */
export function cephGatewayUser(name: string): { accessKeyId: string; secretAccessKey: string } | null {
  try {
    const text = execFileSync('bash', [SCRIPT, 'user', name], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
      timeout: 30_000,
    })
    const env = Object.fromEntries(
      text
        .trim()
        .split('\n')
        .map((line) => line.split('=', 2) as [string, string]),
    )
    const { AWS_ACCESS_KEY_ID: accessKeyId, AWS_SECRET_ACCESS_KEY: secretAccessKey } = env
    return accessKeyId && secretAccessKey ? { accessKeyId, secretAccessKey } : null
  } catch {
    process.stderr.write(`no second account on the Ceph gateway (scripts/ceph-test-cluster.sh user ${name} failed)\n`)
    return null
  }
}

/** A fresh bucket name for one test file (the cluster is thrown away with its buckets after the run). */
export function testBucketUrl(prefix = 'docs'): string {
  return `s3://mailroom-test-${process.pid}-${randomBytes(4).toString('hex')}/${prefix}`
}

/** An S3 document store on a fresh bucket of the test gateway, created. */
export async function testS3Store(gateway: GatewaySettings, url = testBucketUrl()): Promise<S3DocumentStore> {
  const store = new S3DocumentStore({ ...gateway, url })
  await store.ensure()
  return store
}

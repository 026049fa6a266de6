import { isDomainError } from '@mailroom/core'
import {
  type CopyProgress,
  type CopyReport,
  copyDocumentStore,
  type DocumentStore,
  type DocumentStoreChoice,
  documentStoreFor,
  isS3Url,
  openDatabase,
} from '@mailroom/mailroom'
import type { Command } from 'commander'
import { documentStoreChoice, loadConfig, type ServerConfig } from '../config.js'
import { ConfigError } from '../config-error.js'
import { setting } from '../settings/read-setting.js'
import { holdingDatabase } from './admin-session.js'
import type { CliContext } from './cli-context.js'

/** One progress line: files done of all, skipped, bytes sent, problems. */
export function formatCopyProgress(p: CopyProgress): string {
  return `${p.done}/${p.files} files, ${p.skipped} already there, ${(p.bytes / 1024 / 1024).toFixed(1)} MiB copied, ${p.problems} problem(s)`
}

/** The closing report, one line per problem file. */
export function formatCopyReport(report: CopyReport, from: string, to: string): string {
  const lines = [`copied from ${from} to ${to}: ${formatCopyProgress(report)}`]
  for (const p of report.problemFiles)
    lines.push(
      `${p.problem === 'fingerprint' ? 'FINGERPRINT DIFFERS (not copied)' : p.problem.toUpperCase()}: ${p.key}`,
    )
  lines.push(
    report.problems === 0
      ? `every file is in ${to} with its fingerprint checked: set MAILROOM_DOCSERVER_URL=${to} on every server`
      : 'some files could not be copied: see above (mailroom fsck tells more); run again once mended, copied files are kept',
  )
  return `${lines.join('\n')}\n`
}

/** How one end of a copy reaches its object store when it is not the configured one (`--to-*`, `--from-*`). */
export interface CopyEndSettings {
  readonly endpoint?: string
  readonly region?: string
  readonly forcePathStyle?: boolean
}

/** What to copy where: the stores' URLs and, for an end in another object store, how to reach it. */
export interface CopyRequest {
  readonly to: string
  readonly from?: string
  readonly toStore?: CopyEndSettings
  readonly fromStore?: CopyEndSettings
}

/** The environment variables holding each end's own keys (never on the command line, where `ps` shows them). */
const END_KEYS = {
  to: { accessKeyId: 'MAILROOM_COPY_TO_ACCESS_KEY_ID', secretAccessKey: 'MAILROOM_COPY_TO_SECRET_ACCESS_KEY' },
  from: { accessKeyId: 'MAILROOM_COPY_FROM_ACCESS_KEY_ID', secretAccessKey: 'MAILROOM_COPY_FROM_SECRET_ACCESS_KEY' },
} as const

/**
 * The S3 settings of one end. With none of its own (no `--to-*` option, no MAILROOM_COPY_TO_* key), it
 * shares the server's MAILROOM_S3_* settings and AWS_* keys; with any, those alone describe it (no endpoint:
 * AWS S3), so nothing of the other provider leaks in. Its keys come from the environment only.
 */
export function copyEndS3(
  config: ServerConfig,
  side: 'to' | 'from',
  own: CopyEndSettings | undefined,
  env: Record<string, string | undefined>,
): DocumentStoreChoice['s3'] {
  const names = END_KEYS[side]
  const accessKeyId = setting(env, names.accessKeyId)
  const secretAccessKey = setting(env, names.secretAccessKey)
  if (Boolean(accessKeyId) !== Boolean(secretAccessKey))
    throw new ConfigError(`${names.accessKeyId} and ${names.secretAccessKey} go together: set both or neither`)
  if (Object.keys(own ?? {}).length === 0 && !accessKeyId) return config.s3
  return {
    ...own,
    ...(config.s3.callTimeoutMs === undefined ? {} : { callTimeoutMs: config.s3.callTimeoutMs }),
    ...(accessKeyId && secretAccessKey ? { credentials: { accessKeyId, secretAccessKey } } : {}),
  }
}

/** Opens both ends and checks that each can be used, saying which one cannot and why. */
async function openEnds(
  config: ServerConfig,
  request: CopyRequest,
  env: Record<string, string | undefined>,
): Promise<{ from: DocumentStore; to: DocumentStore }> {
  const open = (side: 'to' | 'from', url: string | undefined, own: CopyEndSettings | undefined): DocumentStore => {
    if (Object.keys(own ?? {}).length > 0 && !(url && isS3Url(url))) {
      throw new ConfigError(
        `--${side}-endpoint, --${side}-region and --${side}-force-path-style apply to an s3:// --${side}`,
      )
    }
    if (url === undefined) return documentStoreFor(documentStoreChoice(config)).store
    const s3 = copyEndS3(config, side, own, env)
    // The source is only read: its bucket is never created.
    return documentStoreFor({ docserverUrl: url, s3: side === 'from' ? { ...s3, createBucket: false } : s3 }).store
  }
  const from = open('from', request.from, request.fromStore)
  const to = open('to', request.to, request.toStore)
  const check = async (role: string, store: DocumentStore, ready: () => Promise<void>) => {
    try {
      await ready()
    } catch (error) {
      if (!isDomainError(error)) throw error
      throw new ConfigError(`the ${role} ${store.description} cannot be used: ${error.message}`)
    }
  }
  try {
    if (from.description === to.description)
      throw new Error(`the source and the target are the same store (${from.description})`)
    if (!from.local) await check('source', from, () => from.ensure())
    await check('target', to, () => to.ensure())
    return { from, to }
  } catch (error) {
    await from.close()
    await to.close()
    throw error
  }
}

/**
 * `mailroom docserver copy --to URL [--from URL]`: copies every stored file the database references to
 * another document store (folder ↔ bucket, bucket ↔ bucket of another provider), checking every fingerprint,
 * resumable (see copyDocumentStore). `--from` defaults to the configured store. Exit code 0 when every file
 * is in the target, 1 otherwise.
 */
export async function runDocserverCopy(
  config: ServerConfig,
  request: CopyRequest,
  out: (text: string) => void,
  progress?: (text: string) => void,
  env: Record<string, string | undefined> = process.env,
): Promise<number> {
  const { from, to } = await openEnds(config, request, env)
  const database = await openDatabase(config.database)
  try {
    let last = 0
    const report = await copyDocumentStore(database.db, from, to, (p) => {
      const now = Date.now()
      if (progress && (now - last > 1000 || p.done === p.files)) {
        last = now
        progress(formatCopyProgress(p))
      }
    })
    out(formatCopyReport(report, from.description, to.description))
    return report.problems === 0 ? 0 : 1
  } finally {
    await database.close()
    await from.close()
    await to.close()
  }
}

interface CopyCommandOptions {
  readonly to: string
  readonly from?: string
  readonly toEndpoint?: string
  readonly toRegion?: string
  readonly toForcePathStyle?: boolean
  readonly fromEndpoint?: string
  readonly fromRegion?: string
  readonly fromForcePathStyle?: boolean
}

const COPY_HELP = `
An s3:// end uses the server's MAILROOM_S3_* settings and AWS_* keys, unless it is given settings of its own
(another endpoint, region or provider): then --to-endpoint, --to-region, --to-force-path-style (or the
--from-* ones) and its keys in the environment, MAILROOM_COPY_TO_ACCESS_KEY_ID and
MAILROOM_COPY_TO_SECRET_ACCESS_KEY (MAILROOM_COPY_FROM_* for the source), describe it alone; without keys of
its own it uses the AWS SDK's default chain. Keys are never taken from the command line.

Example, from the configured store to a bucket of another provider:
  MAILROOM_COPY_TO_ACCESS_KEY_ID=… MAILROOM_COPY_TO_SECRET_ACCESS_KEY=… \\
    mailroom docserver copy --to s3://mailroom-documents --to-endpoint https://s3.other.example --to-region fr-par --to-force-path-style
`

function endSettings(endpoint?: string, region?: string, forcePathStyle?: boolean): CopyEndSettings {
  return {
    ...(endpoint ? { endpoint } : {}),
    ...(region ? { region } : {}),
    ...(forcePathStyle ? { forcePathStyle } : {}),
  }
}

/** `mailroom docserver copy`. */
export function registerDocserverCommand(program: Command, context: CliContext): void {
  const docserver = program.command('docserver').description('the document storage')
  docserver
    .command('copy')
    .description(
      'copy every stored file to another store (folder or s3://bucket, on this or another object store), checking fingerprints; resumable',
    )
    .requiredOption('--to <url>', 's3://BUCKET[/PREFIX], file:///path or a folder')
    .option('--from <url>', 'the store to copy from (default: the configured one)')
    .option(
      '--to-endpoint <url>',
      "the target's object store, when not the configured one (default with --to-* settings: AWS S3)",
    )
    .option('--to-region <name>', "region the target's requests are signed for")
    .option('--to-force-path-style', "address the target's bucket as ENDPOINT/BUCKET (most non-AWS stores)")
    .option('--from-endpoint <url>', "the source's object store, when not the configured one")
    .option('--from-region <name>', "region the source's requests are signed for")
    .option('--from-force-path-style', "address the source's bucket as ENDPOINT/BUCKET")
    .addHelpText('after', COPY_HELP)
    .action(async (options: CopyCommandOptions) => {
      const config = loadConfig(context.env, { requireSecret: false })
      const tty = (process.stderr as { isTTY?: boolean }).isTTY === true
      const request: CopyRequest = {
        to: options.to,
        ...(options.from === undefined ? {} : { from: options.from }),
        toStore: endSettings(options.toEndpoint, options.toRegion, options.toForcePathStyle),
        fromStore: endSettings(options.fromEndpoint, options.fromRegion, options.fromForcePathStyle),
      }
      const onProgress = (line: string) => (tty ? process.stderr.write(`\r${line}\x1b[K`) : context.err(`${line}\n`))
      context.exitCode = await holdingDatabase(config, 'docserver copy', () =>
        runDocserverCopy(config, request, context.out, onProgress, context.env),
      )
      if (tty) process.stderr.write('\n')
    })
}

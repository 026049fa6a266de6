import { rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createMailroom, type Mailroom } from '@mailroom/mailroom'
import {
  cephGateway,
  cephGatewayUser,
  rememberEnv,
  startStallingProxy,
  TEST_PASSWORD_HASHER,
  testBucketUrl,
} from '@mailroom/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { captureCli } from '../../test/capture-cli.js'
import { embeddedDemoDataDir } from '../../test/demo-database.js'
import { loadConfig, type ServerConfig } from '../config.js'
import { copyEndS3, runDocserverCopy } from './docserver-copy.js'

/**
 * `mailroom docserver copy`: a folder installation's files go to a bucket of the Ceph test gateway (skipped
 * with a message where none runs) and back to a folder, and from that bucket to a bucket of another account
 * reached at another address; the records then read from the new store.
 */
const gateway = cephGateway()
/** A second account of the gateway, for copies between stores with different keys. */
const otherAccount = gateway === null ? null : cephGatewayUser('mailroom-copy-other')

describe.skipIf(gateway === null)('mailroom docserver copy', () => {
  let dataDir: string
  let config: ServerConfig
  const records = new Map<number, string>()
  const open = (store: { docserverUrl: string; s3?: object }): Promise<Mailroom> =>
    createMailroom({
      database: config.database,
      ...store,
      secret: config.secret,
      passwordHasher: TEST_PASSWORD_HASHER,
      journal: { sweepIntervalMs: 0 },
    })

  const restoreKeys = rememberEnv('AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY')
  beforeAll(async () => {
    dataDir = await embeddedDemoDataDir('mailroom-copy-')
    config = loadConfig({
      MAILROOM_DATA_DIR: dataDir,
      MAILROOM_S3_ENDPOINT: gateway!.endpoint,
      MAILROOM_S3_FORCE_PATH_STYLE: '1',
      AWS_ACCESS_KEY_ID: gateway!.credentials!.accessKeyId,
      AWS_SECRET_ACCESS_KEY: gateway!.credentials!.secretAccessKey,
    })
    // The SDK reads the keys from the process environment, as the CLI does.
    process.env.AWS_ACCESS_KEY_ID = gateway!.credentials!.accessKeyId
    process.env.AWS_SECRET_ACCESS_KEY = gateway!.credentials!.secretAccessKey
    const mailroom = await createMailroom({
      database: config.database,
      docserverDir: config.docserverDir,
      secret: config.secret,
      demo: true,
      passwordHasher: TEST_PASSWORD_HASHER,
    })
    try {
      const as = await mailroom.as('cchaplin')
      for (let i = 0; i < 5; i++) {
        const text = `record ${i} kept in a folder\n`
        const { resId } = await as.records.create({
          modelId: 1,
          status: 'NEW',
          subject: `copy ${i}`,
          format: 'txt',
          encodedFile: Buffer.from(text).toString('base64'),
          destination: 6,
        })
        records.set(resId, text)
      }
      // A second version: the first stays as an adr_letterbox DOC row, which is copied too.
      const [first] = records.keys()
      await (await mailroom.as('superadmin')).content.createVersion(String(first), {
        format: 'txt',
        encodedFile: Buffer.from('second version\n').toString('base64'),
      })
      records.set(first!, 'second version\n')
    } finally {
      await mailroom.close()
    }
  }, 120_000)
  afterAll(async () => {
    restoreKeys()
    await rm(dataDir, { recursive: true, force: true })
  })

  async function readAll(mailroom: Mailroom): Promise<Map<number, string>> {
    const as = await mailroom.as('superadmin')
    const read = new Map<number, string>()
    for (const resId of records.keys()) {
      const result = await as.content.readOriginalContent(String(resId), {})
      if (result.kind !== 'file') throw new Error('expected a file')
      read.set(resId, Buffer.from(result.file.body as Uint8Array).toString())
    }
    return read
  }

  const bucket = testBucketUrl('copied')
  /** The environment of a server switched to the bucket the first copy fills. */
  const switchedToBucket = () => ({
    MAILROOM_DATA_DIR: dataDir,
    MAILROOM_DOCSERVER_URL: bucket,
    MAILROOM_S3_ENDPOINT: gateway!.endpoint,
    MAILROOM_S3_FORCE_PATH_STYLE: '1',
    AWS_ACCESS_KEY_ID: gateway!.credentials!.accessKeyId,
    AWS_SECRET_ACCESS_KEY: gateway!.credentials!.secretAccessKey,
  })

  it('copies every file to a bucket with its fingerprint checked; the records then read from the bucket; a second run sends nothing', async () => {
    const out: string[] = []
    const progress: string[] = []
    expect(
      await runDocserverCopy(
        config,
        { to: bucket },
        (text) => out.push(text),
        (line) => progress.push(line),
      ),
    ).toBe(0)
    expect(out.join('')).toMatch(/6\/6 files, 0 already there, [\d.]+ MiB copied, 0 problem\(s\)/)
    expect(out.join('')).toContain(`set MAILROOM_DOCSERVER_URL=s3://`)
    expect(progress.at(-1)).toMatch(/^6\/6 files/)

    const onBucket = await open({ docserverUrl: bucket, s3: gateway! })
    try {
      expect(await readAll(onBucket)).toEqual(records)
    } finally {
      await onBucket.close()
    }

    // Resumable: what is there with the right bytes is not sent again.
    const again: string[] = []
    expect(await runDocserverCopy(config, { to: bucket }, (text) => again.push(text))).toBe(0)
    expect(again.join('')).toMatch(/6\/6 files, 6 already there, 0\.0 MiB copied, 0 problem\(s\)/)

    // And back to a new folder.
    const folder = join(dataDir, 'back')
    expect(await runDocserverCopy(config, { from: bucket, to: folder }, () => {})).toBe(0)
    const onFolder = await open({ docserverUrl: folder })
    try {
      expect(await readAll(onFolder)).toEqual(records)
    } finally {
      await onFolder.close()
    }
  }, 120_000)

  it('runs mailroom fsck and mailroom journal verify on the bucket once the server is switched to it', async () => {
    const env = switchedToBucket()
    const fsck = await captureCli(['fsck', '--dry-run'], env)
    expect(fsck).toMatchObject({ code: 0 })
    expect(fsck.out).toMatch(/^checked 6 file rows and 6 files\n0 problem\(s\), 0 orphan\(s\)\n$/)
    const verify = await captureCli(['journal', 'verify'], env)
    expect(verify.code, verify.out + verify.err).toBe(0)
  }, 120_000)

  it.skipIf(otherAccount === null)(
    'copies from a bucket to a bucket of another store (another address, account and region), named on the command line',
    async () => {
      // The other store: the gateway reached through a proxy on another port, as a second account whose keys
      // the first account does not have, in another region (Ceph's zone group is called `default`).
      const other = otherAccount!
      const proxy = await startStallingProxy(gateway!.endpoint)
      const target = testBucketUrl('other-provider')
      const env = switchedToBucket()
      const toOther = [
        'docserver',
        'copy',
        '--to',
        target,
        '--to-endpoint',
        proxy.endpoint,
        '--to-region',
        'default',
        '--to-force-path-style',
      ]
      try {
        const copied = await captureCli(toOther, {
          ...env,
          MAILROOM_COPY_TO_ACCESS_KEY_ID: other.accessKeyId,
          MAILROOM_COPY_TO_SECRET_ACCESS_KEY: other.secretAccessKey,
        })
        expect(copied.code, copied.err + copied.out).toBe(0)
        expect(copied.out).toMatch(/6\/6 files, 0 already there, [\d.]+ MiB copied, 0 problem\(s\)/)
        expect(proxy.connections).toBeGreaterThan(0)

        // A server on the other store, with its keys alone, reads every record; reads check the fingerprints.
        const onOther = await open({
          docserverUrl: target,
          s3: { endpoint: proxy.endpoint, region: 'default', forcePathStyle: true, credentials: other },
        })
        try {
          expect(await readAll(onOther)).toEqual(records)
        } finally {
          await onOther.close()
        }
        // The first account's keys are refused there: the copy names the end and the reason, and copies nothing.
        const refused = await captureCli(toOther, env)
        expect(refused).toMatchObject({ code: 1, out: '' })
        expect(refused.err).toBe(
          `configuration error: the target ${target}/ cannot be used: Document storage refused the request (access denied or bucket missing)\n`,
        )
        // So is a wrong secret for the source.
        const wrongSource = await captureCli(
          [
            'docserver',
            'copy',
            '--from',
            bucket,
            '--from-endpoint',
            gateway!.endpoint,
            '--from-force-path-style',
            '--to',
            join(dataDir, 'unused'),
          ],
          {
            ...env,
            MAILROOM_COPY_FROM_ACCESS_KEY_ID: gateway!.credentials!.accessKeyId,
            MAILROOM_COPY_FROM_SECRET_ACCESS_KEY: 'not-the-secret',
          },
        )
        expect(wrongSource).toMatchObject({
          code: 1,
          err: `configuration error: the source ${bucket}/ cannot be used: Document storage refused the request (access denied or bucket missing)\n`,
        })
        // A key without its secret, and --to-* options for a folder, are refused before anything is opened.
        expect((await captureCli(toOther, { ...env, MAILROOM_COPY_TO_ACCESS_KEY_ID: other.accessKeyId })).err).toBe(
          'configuration error: MAILROOM_COPY_TO_ACCESS_KEY_ID and MAILROOM_COPY_TO_SECRET_ACCESS_KEY go together: set both or neither\n',
        )
        expect(
          (await captureCli(['docserver', 'copy', '--to', join(dataDir, 'folder'), '--to-region', 'eu-west-3'], env))
            .err,
        ).toBe('configuration error: --to-endpoint, --to-region and --to-force-path-style apply to an s3:// --to\n')
      } finally {
        await proxy.close()
      }
    },
    120_000,
  )

  it('refuses to copy a file whose bytes no longer match its row, and says which', async () => {
    const mailroom = await open({ docserverUrl: config.docserverDir })
    let key: string
    try {
      const [resId] = records.keys()
      const row = await mailroom.db
        .selectFrom('res_letterbox as r')
        .innerJoin('docservers as d', 'd.docserver_id', 'r.docserver_id')
        .select(['r.path', 'r.filename', 'd.path_template'])
        .where('r.res_id', '=', resId!)
        .executeTakeFirstOrThrow()
      key = mailroom.documentStore.keyOf(row.path_template, row.path ?? '', row.filename ?? '')!
      await writeFile(join(config.docserverDir, key), 'altered on disk\n')
    } finally {
      await mailroom.close()
    }
    const bucket = testBucketUrl('refused')
    const out: string[] = []
    expect(await runDocserverCopy(config, { to: bucket }, (text) => out.push(text))).toBe(1)
    expect(out.join('')).toContain(`FINGERPRINT DIFFERS (not copied): ${key}`)
    const onBucket = await open({ docserverUrl: bucket, s3: gateway! })
    try {
      expect(await onBucket.documentStore.size(key)).toBeNull()
    } finally {
      await onBucket.close()
    }
  }, 120_000)
})

describe("the object-store settings of a copy's end", () => {
  const config = loadConfig(
    {
      MAILROOM_DATA_DIR: tmpdir(),
      MAILROOM_S3_ENDPOINT: 'http://ceph.internal:7480',
      MAILROOM_S3_FORCE_PATH_STYLE: '1',
      MAILROOM_S3_TIMEOUT_MS: '5000',
    },
    { requireSecret: false },
  )

  it("are the server's without settings of its own, and its own alone (no endpoint: AWS) with any", () => {
    expect(copyEndS3(config, 'to', {}, {})).toEqual(config.s3)
    expect(copyEndS3(config, 'to', { region: 'eu-west-3' }, {})).toEqual({ region: 'eu-west-3', callTimeoutMs: 5000 })
    const keys = {
      MAILROOM_COPY_FROM_ACCESS_KEY_ID: 'other-access',
      MAILROOM_COPY_FROM_SECRET_ACCESS_KEY: 'other-secret',
    }
    expect(copyEndS3(config, 'from', {}, keys)).toEqual({
      callTimeoutMs: 5000,
      credentials: { accessKeyId: 'other-access', secretAccessKey: 'other-secret' },
    })
    // The other end's keys are not this end's.
    expect(copyEndS3(config, 'to', {}, keys)).toEqual(config.s3)
  })
})

describe('mailroom docserver copy between folders', () => {
  let dataDir: string
  const records = new Map<number, string>()
  const env = () => ({ MAILROOM_DATA_DIR: dataDir, DATABASE_URL: '', LOG_LEVEL: 'silent' })
  const open = (docserverDir: string) =>
    createMailroom({
      database: loadConfig(env()).database,
      docserverDir,
      secret: 'copy-between-folders-secret-0123',
      passwordHasher: TEST_PASSWORD_HASHER,
      journal: { sweepIntervalMs: 0 },
    })

  beforeAll(async () => {
    dataDir = await embeddedDemoDataDir('mailroom-copy-folders-')
    const mailroom = await createMailroom({
      database: loadConfig(env()).database,
      docserverDir: join(dataDir, 'docservers'),
      secret: 'copy-between-folders-secret-0123',
      demo: true,
      passwordHasher: TEST_PASSWORD_HASHER,
    })
    try {
      const as = await mailroom.as('cchaplin')
      for (let i = 0; i < 3; i++) {
        const text = `record ${i} moving to another folder\n`
        const { resId } = await as.records.create({
          modelId: 1,
          status: 'NEW',
          subject: `move ${i}`,
          format: 'txt',
          encodedFile: Buffer.from(text).toString('base64'),
          destination: 6,
        })
        records.set(resId, text)
      }
    } finally {
      await mailroom.close()
    }
  }, 120_000)
  afterAll(async () => rm(dataDir, { recursive: true, force: true }))

  // Between two folders: the target's put starts reading only after making its folder (bytes lost before the fix).
  it('reports every file copied, and a Mailroom switched to the new folder reads each record with its bytes', async () => {
    const target = join(dataDir, 'new-folder')
    const copied = await captureCli(['docserver', 'copy', '--to', target], env())
    expect(copied.code, copied.err + copied.out).toBe(0)
    expect(copied.out).toMatch(/3\/3 files, 0 already there, [\d.]+ MiB copied, 0 problem\(s\)/)
    const switched = await open(target)
    try {
      const as = await switched.as('superadmin')
      for (const [resId, text] of records) {
        const result = await as.content.readOriginalContent(String(resId), {})
        if (result.kind !== 'file') throw new Error(`record ${resId}: expected a file`)
        expect(Buffer.from(result.file.body as Uint8Array).toString()).toBe(text)
      }
    } finally {
      await switched.close()
    }
  }, 120_000)
})

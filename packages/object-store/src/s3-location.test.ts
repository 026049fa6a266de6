import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { documentKey, isS3Url, parseS3Url } from './s3-location.js'
import { storeError } from './store-errors.js'

describe('parseS3Url', () => {
  it('reads the bucket and a prefix ending with /', () => {
    expect(parseS3Url('s3://mailroom-docs')).toEqual({ bucket: 'mailroom-docs', prefix: '' })
    expect(parseS3Url('s3://mailroom-docs/')).toEqual({ bucket: 'mailroom-docs', prefix: '' })
    expect(parseS3Url('s3://mailroom-docs/prod/site-a/')).toEqual({ bucket: 'mailroom-docs', prefix: 'prod/site-a/' })
    expect(parseS3Url(' S3://mailroom.docs//prod ')).toEqual({ bucket: 'mailroom.docs', prefix: 'prod/' })
  })

  it('refuses what is not s3://BUCKET[/PREFIX] with a valid bucket, and prefixes that climb', () => {
    for (const bad of [
      's3://',
      's3://A_B',
      's3://ab',
      'http://bucket/x',
      's3://bucket/../x',
      's3://bucket/a/../../x',
    ]) {
      expect(() => parseS3Url(bad), bad).toThrow()
    }
  })

  it('gives a bucket and prefix for any valid name, or a readable error, never anything else (property)', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 80 }), (text) => {
        try {
          const { bucket, prefix } = parseS3Url(`s3://${text}`)
          expect(bucket).toMatch(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/)
          expect(prefix === '' || prefix.endsWith('/')).toBe(true)
          expect(prefix.split('/')).not.toContain('..')
        } catch (error) {
          expect((error as Error).message).toMatch(/s3:\/\/BUCKET|prefix may not/)
        }
      }),
      { numRuns: 300 },
    )
  })

  it('tells object storage from folders', () => {
    expect(isS3Url('s3://b-1/x')).toBe(true)
    expect(isS3Url('file:///srv/docs')).toBe(false)
    expect(isS3Url('/srv/docs')).toBe(false)
  })
})

describe('documentKey', () => {
  it('joins template, path and name as the folder store does, reading # as /', () => {
    expect(documentKey('resources/', '2025#01#0001#', 'a.pdf')).toBe('resources/2025/01/0001/a.pdf')
    expect(documentKey('resources', '2026/03/', 'b.txt')).toBe('resources/2026/03/b.txt')
    expect(documentKey('resources/', '', '')).toBe('resources')
  })

  it('never gives a key that leaves the store (property)', () => {
    const part = fc.stringMatching(/^[a-z./#]{0,12}$/)
    fc.assert(
      fc.property(part, part, part, (template, path, filename) => {
        const key = documentKey(template, path, filename)
        if (key === null) return
        expect(key.startsWith('/')).toBe(false)
        expect(key.split('/')).not.toContain('..')
        expect(key).not.toBe('')
      }),
      { numRuns: 500 },
    )
    expect(documentKey('resources/', '../../', 'passwd')).toBeNull()
    expect(documentKey('/etc/', '', 'passwd')).toBeNull()
  })
})

describe('storeError', () => {
  const failure = (name: string, status?: number) =>
    Object.assign(new Error(name), { name, $metadata: { httpStatusCode: status } })
  it('maps the S3 client failures to the catalogue: 404 missing, 503 refused or unreachable', () => {
    expect(storeError(failure('NoSuchKey', 404))).toMatchObject({
      code: 'DOCUMENT_NOT_IN_DOCSERVER',
      kind: 'not-found',
    })
    expect(storeError(failure('NotFound', 404))).toMatchObject({ code: 'DOCUMENT_NOT_IN_DOCSERVER' })
    expect(storeError(failure('NoSuchBucket', 404))).toMatchObject({
      code: 'DOCUMENT_STORE_REFUSED',
      kind: 'unavailable',
    })
    expect(storeError(failure('AccessDenied', 403))).toMatchObject({ code: 'DOCUMENT_STORE_REFUSED' })
    expect(storeError(failure('InvalidAccessKeyId', 403))).toMatchObject({ code: 'DOCUMENT_STORE_REFUSED' })
    expect(storeError(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }))).toMatchObject({
      code: 'DOCUMENT_STORE_UNREACHABLE',
      kind: 'unavailable',
      message: 'Document storage cannot be reached, try again later',
    })
    expect(storeError(failure('InternalError', 500))).toMatchObject({ code: 'DOCUMENT_STORE_UNREACHABLE' })
    expect(storeError(failure('TimeoutError'))).toMatchObject({ code: 'DOCUMENT_STORE_UNREACHABLE' })
  })
})

import { ContentBase64ResponseSchema, VersionContentResponseSchema } from '@mailroom/core'
import { describe, expect, it } from 'vitest'
import type { ZodOpenApiMediaTypeObject } from 'zod-openapi'
import { ROUTES } from '../routes/index.js'
import { isDocumented } from '../routes/route-declaration.js'

interface Parser {
  safeParse(value: unknown): { error?: { issues: unknown[] } }
}

// These examples abbreviate the base64 document they carry (`JVBERi0xLjcK...`): checked without it.
const ABBREVIATED = new Map<unknown, Parser>([
  [ContentBase64ResponseSchema, ContentBase64ResponseSchema.omit({ encodedDocument: true })],
  [VersionContentResponseSchema, VersionContentResponseSchema.omit({ encodedDocument: true })],
])

/** Every example of a JSON request body or success answer of the declarations, with its zod schema. */
function declaredExamples(): [string, Parser, unknown][] {
  const found: [string, Parser, unknown][] = []
  const collect = (name: string, media: ZodOpenApiMediaTypeObject | undefined) => {
    const schema = media?.schema as Partial<Parser> | undefined
    if (typeof schema?.safeParse !== 'function') return
    const parser = ABBREVIATED.get(schema) ?? (schema as Parser)
    if (media?.example !== undefined) found.push([name, parser, media.example])
    for (const [key, example] of Object.entries(media?.examples ?? {}))
      found.push([`${name} ${key}`, parser, (example as { value?: unknown }).value])
  }
  for (const route of ROUTES.filter(isDocumented)) {
    collect(`${route.operationId} request`, route.request?.body)
    for (const [status, response] of Object.entries(route.responses))
      collect(
        `${route.operationId} ${status}`,
        (response as { content?: Record<string, ZodOpenApiMediaTypeObject> }).content?.['application/json'],
      )
  }
  return found
}

describe('OpenAPI examples', () => {
  it('are given for the request bodies and answers of the interface', () => {
    const names = declaredExamples().map(([name]) => name)
    expect(names).toEqual(
      expect.arrayContaining([
        'authenticate request',
        'createRecord request current',
        'createRecord request earlier',
        'createRecord 200',
        'newVersion request version',
        'newVersion request signed',
        'newVersion 200',
        'searchRecords request',
        'searchRecords 200',
        'getContent 200',
        'getOriginalContent 200',
        'getVersionContent 200',
        'updateStatus request byResId',
        'updateStatus request byChrono',
        'updateStatus 200',
        'getHistory 200',
        'getEntity 200',
        'health 200',
        'ready 200',
        'ready 503',
        'readJournal 200',
        'verifyJournalChain 200 verified',
        'verifyJournalChain 200 broken',
      ]),
    )
  })

  it.each(declaredExamples())('%s matches its schema', (_name, schema, example) => {
    expect(schema.safeParse(example).error?.issues ?? []).toEqual([])
  })
})

import {
  AuthenticateBodySchema,
  ChainVerificationResponseSchema,
  ContentBase64ResponseSchema,
  CreateRecordBodySchema,
  CreateRecordResponseSchema,
  EarlierCreateRecordBodySchema,
  EntityResponseSchema,
  JournalEventsResponseSchema,
  LivenessResponseSchema,
  NewVersionBodySchema,
  NewVersionResponseSchema,
  OriginalContentBase64ResponseSchema,
  ReadinessResponseSchema,
  RecordHistoryResponseSchema,
  SearchBodySchema,
  SearchResponseSchema,
  StatusUpdateBodySchema,
  StatusUpdateResponseSchema,
  VersionContentResponseSchema,
} from '@mailroom/core'
import { describe, expect, it } from 'vitest'
import { EXAMPLES } from './openapi-examples.js'

describe('OpenAPI examples', () => {
  it.each([
    ['authenticate', AuthenticateBodySchema, EXAMPLES.authenticate],
    ['createRecord', CreateRecordBodySchema, EXAMPLES.createRecord],
    ['createRecordEarlier', EarlierCreateRecordBodySchema, EXAMPLES.createRecordEarlier],
    ['createRecordResponse', CreateRecordResponseSchema, EXAMPLES.createRecordResponse],
    ['newVersion', NewVersionBodySchema, EXAMPLES.newVersion],
    ['signedVersion', NewVersionBodySchema, EXAMPLES.signedVersion],
    ['newVersionResponse', NewVersionResponseSchema, EXAMPLES.newVersionResponse],
    ['search', SearchBodySchema, EXAMPLES.search],
    ['searchResponse', SearchResponseSchema, EXAMPLES.searchResponse],
    ['contentBase64', ContentBase64ResponseSchema.omit({ encodedDocument: true }), EXAMPLES.contentBase64],
    ['originalContentBase64', OriginalContentBase64ResponseSchema, EXAMPLES.originalContentBase64],
    ['versionContent', VersionContentResponseSchema.omit({ encodedDocument: true }), EXAMPLES.versionContent],
    ['statusUpdate', StatusUpdateBodySchema, EXAMPLES.statusUpdate],
    ['statusUpdateByChrono', StatusUpdateBodySchema, EXAMPLES.statusUpdateByChrono],
    ['statusUpdateResponse', StatusUpdateResponseSchema, EXAMPLES.statusUpdateResponse],
    ['history', RecordHistoryResponseSchema, EXAMPLES.history],
    ['entity', EntityResponseSchema, EXAMPLES.entity],
    ['health', LivenessResponseSchema, EXAMPLES.health],
    ['ready', ReadinessResponseSchema, EXAMPLES.ready],
    ['notReady', ReadinessResponseSchema, EXAMPLES.notReady],
    ['journal', JournalEventsResponseSchema, EXAMPLES.journal],
    ['chainVerification', ChainVerificationResponseSchema, EXAMPLES.chainVerification],
    ['chainBroken', ChainVerificationResponseSchema, EXAMPLES.chainBroken],
  ] as const)('%s matches its schema', (_name, schema, example) => {
    const result = schema.safeParse(example)
    expect(result.error?.issues ?? []).toEqual([])
  })
})

import { describe, expect, it } from 'vitest'
import type { Actor } from '../actors/actor.js'
import { domainError, isDomainError } from '../errors/domain-error.js'
import { createRecord } from './create-record.js'
import type { NewRecord, NewRecordFile } from './new-record.js'
import type {
  CreatePreparation,
  DisabledModelField,
  RecordReferenceFacts,
  RecordReferenceQuery,
  RecordsRepository,
  RecordTreeEntity,
  StagedFile,
} from './ports.js'

const NOW = new Date('2024-02-29T22:30:00Z')
const ENTITIES: ReadonlyMap<number, string> = new Map([
  [6, 'PJS'],
  [7, 'PE'],
])
const TREE: readonly RecordTreeEntity[] = [
  { id: 6, entityId: 'PJS', parentEntityId: null, entityType: 'Direction', enabled: true, businessId: 'ORG-1' },
  { id: 7, entityId: 'PE', parentEntityId: 'PJS', entityType: 'Service', enabled: true, businessId: null },
]
const actor: Actor = {
  id: 2,
  login: 'cchaplin',
  firstname: null,
  lastname: null,
  email: null,
  mode: 'root_visible',
  entities: [{ id: 6, entityId: 'PJS', primary: true }],
  groups: [
    {
      id: 1,
      groupId: 'ADMIN',
      canIndex: true,
      securityClause: '1=1',
      indexingEntities: [],
      indexingKeywords: ['ALL_ENTITIES'],
    },
  ],
}
const PDF_BASE64 = btoa('%PDF-1.4\n%%EOF\n')

/** An in-memory repository: model 1 (incoming) exists, with the disabled fields a test gives it. */
function fakeRepository(disabled: readonly DisabledModelField[]) {
  const calls = {
    lookups: [] as RecordReferenceQuery[],
    created: [] as NewRecord[],
    preparations: [] as (CreatePreparation | undefined)[],
  }
  const repository: RecordsRepository = {
    async lookupReferences(_actor, query: RecordReferenceQuery): Promise<RecordReferenceFacts> {
      calls.lookups.push(query)
      return {
        model:
          query.modelId === 1
            ? {
                id: 1,
                category: 'incoming',
                enabled: true,
                master: null,
                mandatoryFile: false,
                mandatoryFields: [],
                disabledFields: disabled,
              }
            : null,
        doctypeExists: true,
        statusExists: query.status === 'NEW',
        priorityExists: false,
        users: new Set(query.userIds),
        userIdsByLogin: new Map(),
        entities: new Map(
          query.entityIds.filter((id) => ENTITIES.has(id)).map((id) => [id, { entityId: ENTITIES.get(id) as string }]),
        ),
        contacts: new Set(),
        visibleFolders: new Set(),
        tags: new Set(),
        customFields: new Map(
          query.customFieldIds.map((id) => [id, { id, type: id === 2 ? 'date' : 'string', values: [] }]),
        ),
        entityTree: query.needEntityTree ? TREE : [],
        reservedResourceId: query.reserveResourceId ? 77 : null,
      }
    },
    async lookupEarlierReferences() {
      return { modelId: 1, entityIdsByCode: new Map(), priorityIdByOrder: null }
    },
    async create(_actor, record, preparation) {
      calls.created.push(record)
      calls.preparations.push(preparation)
      return 100 + calls.created.length
    },
  }
  const deps = { records: repository, sniffer: { sniff: async () => 'application/pdf' }, clock: { now: () => NOW } }
  return { deps, calls }
}

async function created(disabled: readonly DisabledModelField[], body: Record<string, unknown>): Promise<NewRecord> {
  const { deps, calls } = fakeRepository(disabled)
  await createRecord(deps, actor, body)
  return calls.created[0] as NewRecord
}

async function failure(disabled: readonly DisabledModelField[], body: Record<string, unknown>): Promise<string> {
  const { deps } = fakeRepository(disabled)
  try {
    await createRecord(deps, actor, body)
  } catch (error) {
    if (isDomainError(error)) return error.message
    throw error
  }
  return 'no error'
}

describe("createRecord: the model's disabled fields (reference step 2)", () => {
  it("forces them before the checks, with the use case's clock for _TODAY", async () => {
    const record = await created(
      [
        { identifier: 'subject', defaultValue: 'Model subject' },
        { identifier: 'documentDate', defaultValue: '_TODAY' },
        { identifier: 'destination', defaultValue: '#myPrimaryEntity' },
        { identifier: 'indexingCustomField_2', defaultValue: '_TODAY' },
        { identifier: 'initiator', defaultValue: 6 },
      ],
      {
        modelId: 1,
        status: 'NEW',
        subject: 'Client subject',
        destination: 7,
        initiator: 7,
        customFields: { '1': 'kept' },
      },
    )
    expect(record).toMatchObject({
      subject: 'Model subject',
      destination: 'PJS',
      initiator: 'PE',
      customFields: { '1': 'kept', '2': '2024-02-29' },
    })
    expect(record.documentDate?.toISOString()).toBe('2024-02-29T00:00:00.000Z')
  })

  it("reports a forced value that fails a check with that check's message", async () => {
    expect(await failure([{ identifier: 'destination', defaultValue: 99 }], { modelId: 1, status: 'NEW' })).toBe(
      'Body destination does not exist',
    )
  })

  it('forces nothing for a modelId that names no model', async () => {
    for (const modelId of ['one', 0, 99999999999]) {
      const { deps, calls } = fakeRepository([{ identifier: 'subject', defaultValue: 'x' }])
      await createRecord(deps, actor, { modelId, status: 'NEW' }).catch(() => undefined)
      expect(calls.lookups.length, String(modelId)).toBe(1)
      expect(calls.created, String(modelId)).toEqual([])
    }
    expect(await failure([{ identifier: 'subject', defaultValue: 'x' }], { modelId: 5, status: 'NEW' })).toBe(
      'Body modelId does not exist',
    )
  })

  it('forces nothing on the earlier form', async () => {
    const { deps, calls } = fakeRepository([{ identifier: 'subject', defaultValue: 'Model subject' }])
    await createRecord(deps, actor, {
      status: 'NEW',
      format: 'pdf',
      encodedFile: PDF_BASE64,
      type_id: 101,
      category_id: 'incoming',
      subject: 'Ancien',
    })
    expect(calls.lookups.length).toBe(1)
    expect(calls.created[0]).toMatchObject({ modelId: 1, subject: 'Ancien' })
  })

  it('costs one lookup for a model without disabled fields, and looks the forced body up again otherwise', async () => {
    const plain = fakeRepository([])
    await createRecord(plain.deps, actor, { modelId: 1, status: 'NEW', destination: 7 })
    expect(plain.calls.lookups.map((q) => q.entityIds)).toEqual([[7]])
    const forced = fakeRepository([{ identifier: 'destination', defaultValue: '#myPrimaryEntity' }])
    await createRecord(forced.deps, actor, { modelId: 1, status: 'NEW', destination: 7 })
    // The second lookup checks the entity the model forced, not the one sent.
    expect(forced.calls.lookups.map((q) => q.entityIds)).toEqual([[7], [6]])
    expect(forced.calls.created[0]).toMatchObject({ destination: 'PJS' })
  })
})

describe('createRecord: followed and integrations', () => {
  // 20.10's StoreController writes both flags false unless a file is sent with them.
  const NO_INTEGRATIONS = { inSignatureBook: false, inShipping: false }

  it('passes followed on as a boolean, read the way clients send it', async () => {
    for (const [value, followed] of [
      [true, true],
      ['true', true],
      [1, true],
      ['1', true],
      [false, false],
      ['false', false],
      [0, false],
      [undefined, false],
    ] as const) {
      expect((await created([], { modelId: 1, status: 'NEW', followed: value })).followed, String(value)).toBe(followed)
    }
    expect(await failure([], { modelId: 1, status: 'NEW', followed: 'maybe' })).toBe('Body followed is not a boolean')
  })

  it('keeps the two integrations as booleans when a file is sent, and nothing else', async () => {
    const file = { modelId: 1, status: 'NEW', encodedFile: PDF_BASE64, format: 'pdf' }
    expect(
      (await created([], { ...file, integrations: { inSignatureBook: 'true', inShipping: 0, inMailing: true } }))
        .integrations,
    ).toEqual({ inSignatureBook: true, inShipping: false })
    expect((await created([], { ...file, integrations: { inShipping: '1' } })).integrations).toEqual({
      inSignatureBook: false,
      inShipping: true,
    })
    expect((await created([], file)).integrations).toEqual(NO_INTEGRATIONS)
    expect((await created([], { ...file, integrations: {} })).integrations).toEqual(NO_INTEGRATIONS)
    expect(await failure([], { ...file, integrations: 'yes' })).toBe('Body integrations is not an object')
    expect(await failure([], { ...file, integrations: { inShipping: 'maybe' } })).toBe(
      'Body integrations[inShipping] is not a boolean',
    )
  })

  it('ignores integrations without a file: both false, as 20.10 writes them', async () => {
    expect(
      (await created([], { modelId: 1, status: 'NEW', integrations: { inSignatureBook: true, inShipping: true } }))
        .integrations,
    ).toEqual(NO_INTEGRATIONS)
    expect((await created([], { modelId: 1, status: 'NEW', integrations: 'not even an object' })).integrations).toEqual(
      NO_INTEGRATIONS,
    )
  })
})

describe('createRecord: what the lookup prepares for the store', () => {
  it('reserves the id and reads the entity tree with the references when a file is sent, and hands both to the store', async () => {
    const { deps, calls } = fakeRepository([])
    await createRecord(deps, actor, { modelId: 1, status: 'NEW', encodedFile: PDF_BASE64, format: 'pdf' })
    expect(calls.lookups.map((q) => [q.reserveResourceId, q.needEntityTree])).toEqual([[true, true]])
    expect(calls.preparations).toEqual([{ resId: 77, entityTree: TREE, stagedFile: null }])
  })

  it('reserves nothing without a file (the database numbers the record) and hands no tree it did not read', async () => {
    const { deps, calls } = fakeRepository([])
    await createRecord(deps, actor, { modelId: 1, status: 'NEW', encodedFile: '' })
    expect(calls.lookups.map((q) => [q.reserveResourceId, q.needEntityTree])).toEqual([[false, false]])
    expect(calls.preparations).toEqual([{ resId: null, entityTree: null, stagedFile: null }])
  })
})

/** The fake repository with stageFile: records every staged file and every discard. */
function stagingRepository(
  options: {
    stageFails?: boolean | 'unreachable'
    createFails?: boolean
    sniffed?: string
    disabled?: readonly DisabledModelField[]
  } = {},
) {
  const { deps, calls } = fakeRepository(options.disabled ?? [])
  const staging = { staged: [] as StagedFile[], discarded: [] as StagedFile[] }
  const records: RecordsRepository = {
    ...deps.records,
    async stageFile(file: NewRecordFile) {
      if (options.stageFails === 'unreachable') throw domainError('DOCUMENT_STORE_UNREACHABLE')
      if (options.stageFails) throw Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' })
      const staged: StagedFile = {
        file,
        discard: async () => {
          staging.discarded.push(staged)
        },
      }
      staging.staged.push(staged)
      return staged
    },
    async create(actor, record, preparation) {
      if (options.createFails) throw new Error('connection lost')
      return deps.records.create(actor, record, preparation)
    },
  }
  const sniffer = { sniff: async () => options.sniffed ?? 'application/pdf' }
  return { deps: { ...deps, records, sniffer }, calls, staging }
}

const WITH_FILE = { modelId: 1, status: 'NEW', encodedFile: PDF_BASE64, format: 'PDF' }

describe('createRecord: the file written while the references are looked up (StagedFile)', () => {
  it("hands the staged file, holding the record's very bytes and normalised format, to the store", async () => {
    const { deps, calls, staging } = stagingRepository()
    await createRecord(deps, actor, WITH_FILE)
    expect(staging.staged).toHaveLength(1)
    const staged = staging.staged[0] as StagedFile
    expect(staged.file.format).toBe('pdf')
    expect(calls.created[0]?.file?.bytes).toBe(staged.file.bytes)
    expect(calls.preparations[0]?.stagedFile).toBe(staged)
    expect(staging.discarded).toEqual([])
  })

  it("discards it when the checks refuse the body, and answers with the check's message", async () => {
    const { deps, calls, staging } = stagingRepository()
    await expect(createRecord(deps, actor, { ...WITH_FILE, status: 'NOPE' })).rejects.toThrow(
      'Body status does not exist',
    )
    expect(staging.staged).toHaveLength(1)
    expect(staging.discarded).toEqual(staging.staged)
    expect(calls.created).toEqual([])
  })

  it('stages nothing for a format the sniffed type does not allow, nor without a file', async () => {
    const refused = stagingRepository({ sniffed: 'text/plain' })
    await expect(createRecord(refused.deps, actor, WITH_FILE)).rejects.toThrow(
      'Format with this mimeType is not allowed : PDF text/plain',
    )
    expect(refused.staging.staged).toEqual([])
    const none = stagingRepository()
    await createRecord(none.deps, actor, { modelId: 1, status: 'NEW' })
    expect(none.staging.staged).toEqual([])
    expect(none.calls.preparations[0]?.stagedFile).toBeNull()
  })

  it("discards it when the model forces the file's format, and lets the store write the forced file", async () => {
    const { deps, calls, staging } = stagingRepository({ disabled: [{ identifier: 'format', defaultValue: 'Pdf' }] })
    await createRecord(deps, actor, WITH_FILE)
    expect(staging.staged).toHaveLength(1)
    expect(staging.discarded).toEqual(staging.staged)
    expect(calls.preparations[0]?.stagedFile).toBeNull()
    expect(calls.created[0]?.file?.format).toBe('pdf')
    const refused = stagingRepository({ disabled: [{ identifier: 'format', defaultValue: 'txt' }] })
    await expect(createRecord(refused.deps, actor, WITH_FILE)).rejects.toThrow(
      'Format with this mimeType is not allowed : txt application/pdf',
    )
    expect(refused.staging.discarded).toEqual(refused.staging.staged)
    expect(refused.calls.created).toEqual([])
  })

  it('discards it when the lookup itself fails, and answers with the unexpected-failure message', async () => {
    const { deps, calls, staging } = stagingRepository()
    const records: RecordsRepository = {
      ...deps.records,
      lookupReferences: async () => {
        throw new Error('Connection terminated unexpectedly')
      },
    }
    await expect(createRecord({ ...deps, records }, actor, WITH_FILE)).rejects.toMatchObject({
      kind: 'internal',
      message: expect.stringContaining('[ResController create]'),
    })
    expect(staging.staged).toHaveLength(1)
    expect(staging.discarded).toEqual(staging.staged)
    expect(calls.created).toEqual([])
  })

  it('lets the store write the file itself when staging failed', async () => {
    const { deps, calls } = stagingRepository({ stageFails: true })
    await createRecord(deps, actor, WITH_FILE)
    expect(calls.created).toHaveLength(1)
    expect(calls.preparations[0]?.stagedFile).toBeNull()
  })

  it("answers with the staging's failure, once the body is checked, when the store cannot be reached: no second wait on it", async () => {
    const { deps, calls } = stagingRepository({ stageFails: 'unreachable' })
    await expect(createRecord(deps, actor, WITH_FILE)).rejects.toMatchObject({ code: 'DOCUMENT_STORE_UNREACHABLE' })
    expect(calls.created).toEqual([])
    // A body the checks refuse still gets their answer.
    await expect(createRecord(deps, actor, { ...WITH_FILE, status: 'NOPE' })).rejects.toThrow(
      'Body status does not exist',
    )
  })

  it('leaves the staged file to the store once handed over, even when the store fails', async () => {
    const { deps, staging } = stagingRepository({ createFails: true })
    await expect(createRecord(deps, actor, WITH_FILE)).rejects.toThrow('[ResController create]')
    expect(staging.staged).toHaveLength(1)
    expect(staging.discarded).toEqual([])
  })
})

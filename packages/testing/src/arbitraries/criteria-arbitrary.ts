/**
 * fast-check arbitraries of `POST /rest/search` bodies (Maarch 20.10's criteria): well-formed bodies, whose
 * every criterion the parser must accept, and bodies with one bad criterion, which it must refuse naming it.
 * Values lean on the demo organisation and the seeded search dataset (chronos `MAARCH/2025A/<n>`, statuses
 * 1-8, entities 1-8) so that many generated searches find records. Core's and storage's tests reach this
 * file by relative path.
 */
import fc from 'fast-check'

/** Names the parser knows (served or refused as unserved), which an "unknown name" must not be. */
const KNOWN = new Set([
  'meta',
  'subject',
  'chrono',
  'barcode',
  'resId',
  'doctype',
  'category',
  'status',
  'priority',
  'destination',
  'initiator',
  'confidentiality',
  'binding',
  'retentionFrozen',
  'creationDate',
  'documentDate',
  'arrivalDate',
  'departureDate',
  'processLimitDate',
  'closingDate',
  'senders',
  'recipients',
  'tags',
  'folders',
  'notes',
  'filters',
  'fulltext',
  'groupSign',
  'senderDepartment',
  'attachment_type',
  'attachment_creationDate',
])

/** Any text a caller may send, spaces and LIKE wildcards included, never empty once trimmed. */
export const criterionTextArbitrary: fc.Arbitrary<string> = fc
  .oneof(
    fc.string({ unit: 'grapheme', minLength: 1, maxLength: 16 }),
    fc.constantFrom(
      '%',
      '_',
      '\\',
      "'; drop table res_letterbox; --",
      '$1',
      'été',
      'MAARCH/2025A/1',
      '2025A/1',
      '"Courrier 3 l\'été"',
    ),
  )
  .map((text) => text.replaceAll('\0', ''))
  .filter((text) => text.trim().length > 0)

const chronoText = fc.oneof(
  fc.nat(30).map((n) => `MAARCH/2025A/${n}`),
  fc.nat(30).map((n) => `2025D/${n}`),
  fc.nat(30).map((n) => `MAARCH / 2025A / ${n}`),
  criterionTextArbitrary,
)
const day = fc
  .date({ min: new Date('2024-01-01T00:00:00Z'), max: new Date('2025-03-01T00:00:00Z'), noInvalidDate: true })
  .map((date) => date.toISOString().slice(0, 10))
const dayRange = fc
  .record({ start: fc.option(day, { nil: undefined }), end: fc.option(day, { nil: undefined }) }, { requiredKeys: [] })
  .filter((range) => range.start !== undefined || range.end !== undefined)
const ids = (max: number) => fc.array(fc.integer({ min: 1, max }), { minLength: 1, maxLength: 4 })
const idsOrNull = (max: number) =>
  fc.array(fc.option(fc.integer({ min: 1, max }), { nil: null }), { minLength: 1, maxLength: 4 })
const flags = fc.array(fc.constantFrom(true, false, null), { minLength: 1, maxLength: 3 })

/** One well-formed criterion: its name and its `values`. */
export const criterionArbitrary: fc.Arbitrary<[string, unknown]> = fc.oneof(
  fc.tuple(fc.constant('chrono'), chronoText),
  fc.tuple(fc.constant('meta'), fc.oneof(chronoText, fc.constantFrom('Courrier', 'ete', '"Courrier 4 l\'été"', '12'))),
  fc.tuple(fc.constant('subject'), fc.oneof(criterionTextArbitrary, fc.constantFrom('courrier ETE', 'Courrier 1'))),
  fc.tuple(fc.constant('barcode'), criterionTextArbitrary),
  fc.tuple(
    fc.constant('resId'),
    fc
      .record(
        {
          start: fc.option(fc.integer({ min: 1, max: 200 }), { nil: undefined }),
          end: fc.option(fc.integer({ min: 1, max: 200 }), { nil: undefined }),
        },
        { requiredKeys: [] },
      )
      .filter((range) => range.start !== undefined || range.end !== undefined),
  ),
  fc.tuple(fc.constant('doctype'), ids(106)),
  fc.tuple(
    fc.constant('category'),
    fc.array(fc.constantFrom('incoming', 'outgoing', 'internal'), { minLength: 1, maxLength: 2 }),
  ),
  fc.tuple(fc.constant('status'), idsOrNull(8)),
  fc.tuple(
    fc.constant('priority'),
    fc.array(fc.constantFrom('poiuytre1357nbvc', 'poiuytre1379nbvc', null), { minLength: 1 }),
  ),
  fc.tuple(fc.constantFrom('destination', 'initiator'), idsOrNull(8)),
  fc.tuple(fc.constantFrom('confidentiality', 'binding', 'retentionFrozen'), flags),
  fc.tuple(
    fc.constantFrom('creationDate', 'documentDate', 'arrivalDate', 'departureDate', 'processLimitDate', 'closingDate'),
    dayRange,
  ),
  fc.tuple(
    fc.constantFrom('senders', 'recipients'),
    fc.oneof(
      fc.array(fc.record({ id: fc.integer({ min: 1, max: 6 }), type: fc.constantFrom('contact', 'user', 'entity') }), {
        minLength: 1,
        maxLength: 3,
      }),
      fc.array(criterionTextArbitrary, { minLength: 1, maxLength: 1 }),
    ),
  ),
  fc.tuple(fc.constantFrom('tags', 'folders'), idsOrNull(3)),
  fc.tuple(fc.constant('notes'), criterionTextArbitrary),
  fc.tuple(
    fc.constant('attachment_type'),
    fc.array(fc.constantFrom('response_project', 'simple_attachment'), { minLength: 1, maxLength: 2 }),
  ),
  fc.tuple(fc.constant('attachment_creationDate'), dayRange),
  fc.tuple(
    fc.constantFrom('role_dest', 'role_cc', 'role_sign', 'role_visa'),
    fc.array(
      fc.option(fc.record({ id: fc.integer({ min: 1, max: 8 }), type: fc.constantFrom('user', 'entity') }), {
        nil: null,
      }),
      { minLength: 1, maxLength: 3 },
    ),
  ),
  fc.tuple(
    fc.constant('senderDepartment'),
    fc.array(fc.option(fc.constantFrom('13', '75', '99', 1), { nil: null }), { minLength: 1, maxLength: 3 }),
  ),
  fc.tuple(fc.constant('groupSign'), idsOrNull(6)),
  fc.tuple(fc.constant('registeredMail_reference'), criterionTextArbitrary),
)

/** A well-formed body: distinct criteria, each `{"values": …}`. */
export const criteriaBodyArbitrary: fc.Arbitrary<Record<string, { values: unknown }>> = fc
  .uniqueArray(criterionArbitrary, { maxLength: 4, selector: ([name]) => name })
  .map((entries) => Object.fromEntries(entries.map(([name, values]) => [name, { values }])))

/** Values of the wrong type for a criterion (each rejected by every criterion's schema). */
const wrongValues = fc.oneof(
  fc.constant(null),
  fc.constant(''),
  fc.constant([]),
  fc.constant({}),
  fc.constant([{ id: 'NEW' }]),
  fc.constant(12.5),
  fc.constant(true),
)

/** A body with one refused criterion beside good ones, and the name the 400 must give. */
export const badCriteriaBodyArbitrary: fc.Arbitrary<{ body: Record<string, unknown>; name: string }> = fc
  .tuple(
    criteriaBodyArbitrary,
    fc.oneof(
      // A known criterion with values of the wrong type.
      fc
        .tuple(
          fc.constantFrom(
            'chrono',
            'meta',
            'status',
            'doctype',
            'destination',
            'creationDate',
            'senders',
            'tags',
            'resId',
          ),
          wrongValues,
        )
        .map(([name, values]) => ({ name, criterion: { values } as unknown })),
      // A known criterion not written as {"values": …}.
      fc.constantFrom('chrono', 'status').map((name) => ({ name, criterion: 'MAARCH/2025A/1' as unknown })),
      // An unknown name.
      fc
        .string({ minLength: 1, maxLength: 12 })
        .filter(
          (name) =>
            /^[a-zA-Z_]+$/.test(name) &&
            !KNOWN.has(name) &&
            // Families of names 20.10 reads: roles, registered mail, custom fields.
            !/^(role_|registeredMail_|indexingCustomField_)/.test(name),
        )
        .map((name) => ({ name, criterion: { values: 'x' } as unknown })),
    ),
  )
  .map(([body, bad]) => {
    const rest = Object.fromEntries(Object.entries(body).filter(([name]) => name !== bad.name))
    return { body: { ...rest, [bad.name]: bad.criterion }, name: bad.name }
  })

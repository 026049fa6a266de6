#!/usr/bin/env node
// Records what a running Maarch Courrier 20.10 answers to the routes of the capture workflow (issue 32), as test
// fixtures. Run it once against a fresh instance (see packages/testing/fixtures/maarch-20.10-answers/README.md):
//   node scripts/record-maarch-answers.mjs [baseUrl] [outDir] [--only=search-criteria|attachments-manage|baskets|letter-page]
// (`--only=baskets [--database=maarch]` also reads and writes Maarch's database directly with psql;
// `--only=letter-page [--database=maarch]` reads its serial ids there.)
// It creates contacts, notes, attachments, links and a letter, so a second run against the same database records
// other ids: restart Maarch (fresh database) before recording again.
import { createHash } from 'node:crypto'
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { recordBaskets } from './record-maarch-baskets.mjs'
import { recordLetterPage } from './record-maarch-letter-page.mjs'

const baseUrl = (process.argv[2] ?? 'http://127.0.0.1:9080/rest').replace(/\/+$/, '')
const outDir = process.argv[3] ?? 'packages/testing/fixtures/maarch-20.10-answers'

const passwords = { superadmin: 'superadmin' }
// A user written `login:password` is sent as is (to record a wrong password).
const credentialsOf = (user) => (user.includes(':') ? user : `${user}:${passwords[user] ?? 'maarch'}`)

// Keys whose string values are base64 files: kept as their first 64 characters and their length.
const base64Keys = new Set(['encodedFile', 'encodedDocument'])
const truncateBase64 = (value) =>
  typeof value === 'string' && value.length > 64
    ? { truncatedBase64: { head: value.slice(0, 64), length: value.length } }
    : value

function withBase64Truncated(value) {
  if (Array.isArray(value)) return value.map(withBase64Truncated)
  if (value === null || typeof value !== 'object') return value
  return Object.fromEntries(
    Object.entries(value).map(([key, inner]) => [
      key,
      base64Keys.has(key) ? truncateBase64(inner) : withBase64Truncated(inner),
    ]),
  )
}

async function readBody(response) {
  const contentType = response.headers.get('content-type') ?? ''
  const bytes = Buffer.from(await response.arrayBuffer())
  if (bytes.length === 0) return null
  const text = bytes.toString('utf8')
  if (contentType.includes('json') || /^[[{]/.test(text)) {
    try {
      return JSON.parse(text)
    } catch {
      // Not JSON after all: PHP notices or HTML; kept as text below.
    }
  }
  if (contentType.startsWith('text/') || contentType === '') return text
  const base64 = bytes.toString('base64')
  return {
    truncatedBinary: {
      head: base64.slice(0, 64),
      length: bytes.length,
      sha256: createHash('sha256').update(bytes).digest('hex'),
    },
  }
}

const files = new Map()

/** Sends one request as `user`, records it under fixture file `file`, returns the parsed answer. */
async function call(file, name, user, method, path, { query, body } = {}) {
  const url = new URL(baseUrl + path)
  for (const [key, value] of Object.entries(query ?? {})) url.searchParams.set(key, String(value))
  const headers = {}
  if (user) headers.authorization = `Basic ${Buffer.from(credentialsOf(user)).toString('base64')}`
  if (body !== undefined) headers['content-type'] = 'application/json'
  const response = await fetch(url, {
    method,
    headers,
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  })
  const answer = await readBody(response)
  const exchange = {
    name,
    request: { user, method, path, query: query ?? {}, body: withBase64Truncated(body ?? null) },
    response: {
      status: response.status,
      contentType: response.headers.get('content-type'),
      body: withBase64Truncated(answer),
    },
  }
  if (!files.has(file)) files.set(file, [])
  files.get(file).push(exchange)
  // `exchange` is returned so that a recorder may attach what the database holds after it (`exchange.database`).
  return { status: response.status, body: answer, exchange }
}

// The smallest valid PDF: enough for Maarch to store, fingerprint and serve it.
function tinyPdf(text) {
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 100] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${text.length + 30} >>\nstream\nBT /F1 12 Tf 10 50 Td (${text}) Tj ET\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ]
  let pdf = '%PDF-1.4\n'
  const offsets = objects.map((object, index) => {
    const offset = pdf.length
    pdf += `${index + 1} 0 obj\n${object}\nendobj\n`
    return offset
  })
  const xref = pdf.length
  pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`
  for (const offset of offsets) pdf += `${String(offset).padStart(10, '0')} 00000 n \n`
  pdf += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`
  return Buffer.from(pdf, 'latin1').toString('base64')
}

const long = (character) => character.repeat(10_000)

async function referenceData() {
  for (const user of ['cchaplin', 'bbain', 'ddur']) {
    await call('entities', `list as ${user}`, user, 'GET', '/entities')
  }
  await call('entities', 'one by integer id', 'cchaplin', 'GET', '/entities/6')
  await call('entities', 'one by string id (500 in 20.10)', 'cchaplin', 'GET', '/entities/PJS')

  await call('doctypes', 'tree', 'cchaplin', 'GET', '/doctypes')
  await call('doctypes', 'tree as ddur', 'ddur', 'GET', '/doctypes')
  for (const id of ['101', '305', '99999', 'abc']) {
    await call('doctypes-types', `type ${id}`, 'cchaplin', 'GET', `/doctypes/types/${id}`)
  }

  await call('statuses', 'list', 'cchaplin', 'GET', '/statuses')
  await call('priorities', 'list', 'cchaplin', 'GET', '/priorities')

  await call('indexing-models', 'list', 'cchaplin', 'GET', '/indexingModels')
  await call('indexing-models', 'list as bbain', 'bbain', 'GET', '/indexingModels')
  for (const id of ['1', '2', '99999', 'abc']) {
    await call('indexing-models', `model ${id}`, 'cchaplin', 'GET', `/indexingModels/${id}`)
  }

  await call('custom-fields', 'list', 'cchaplin', 'GET', '/customFields')
  await call('custom-fields', 'list as ddur', 'ddur', 'GET', '/customFields')

  await call('users', 'list as cchaplin (admin_users)', 'cchaplin', 'GET', '/users')
  await call('users', 'list as bbain (no admin_users)', 'bbain', 'GET', '/users')
  await call('users', 'list as superadmin', 'superadmin', 'GET', '/users')

  await call('tags', 'list', 'cchaplin', 'GET', '/tags')
  await call('folders', 'list as cchaplin', 'cchaplin', 'GET', '/folders')
  await call('folders', 'list as bbain', 'bbain', 'GET', '/folders')

  await call('attachments-types', 'list', 'cchaplin', 'GET', '/attachmentsTypes')

  await call('parameters', 'list as cchaplin (admin_parameters)', 'cchaplin', 'GET', '/parameters')
  await call('parameters', 'list as bbain (no admin_parameters)', 'bbain', 'GET', '/parameters')
  for (const id of ['workingDays', 'chrono_incoming_2020', 'defaultDepartment', 'QrCodePrefix', 'nothing']) {
    await call('parameters-one', `${id} as cchaplin`, 'cchaplin', 'GET', `/parameters/${id}`)
  }
  await call('parameters-one', 'workingDays as ddur', 'ddur', 'GET', '/parameters/workingDays')
  await call('parameters-one', 'minimumVisaRole as ddur (open to all)', 'ddur', 'GET', '/parameters/minimumVisaRole')

  await call('current-user-profile', 'cchaplin', 'cchaplin', 'GET', '/currentUser/profile')
  await call('current-user-profile', 'bbain', 'bbain', 'GET', '/currentUser/profile')
  await call('current-user-profile', 'ddur', 'ddur', 'GET', '/currentUser/profile')
  await call('current-user-profile', 'no credentials', null, 'GET', '/currentUser/profile')
  await call('current-user-profile', 'wrong password', 'bbain:wrong', 'GET', '/currentUser/profile')
}

async function contacts() {
  const list = 'contacts-list'
  await call(list, 'as cchaplin (no admin_contacts)', 'cchaplin', 'GET', '/contacts')
  await call(list, 'as superadmin', 'superadmin', 'GET', '/contacts')
  await call(list, 'search', 'superadmin', 'GET', '/contacts', { query: { search: 'pascontent' } })
  await call(list, 'search two words', 'superadmin', 'GET', '/contacts', { query: { search: 'jean ercol' } })
  await call(list, 'search no match', 'superadmin', 'GET', '/contacts', { query: { search: 'zzzz' } })
  await call(list, 'paging', 'superadmin', 'GET', '/contacts', {
    query: { offset: 2, limit: 3, orderBy: 'lastname', order: 'desc' },
  })
  await call(list, 'paging, bad values fall back', 'superadmin', 'GET', '/contacts', {
    query: { offset: 'x', limit: '-1', orderBy: 'email' },
  })

  const one = 'contacts-get'
  await call(one, 'existing as cchaplin', 'cchaplin', 'GET', '/contacts/1')
  await call(one, 'existing as bbain', 'bbain', 'GET', '/contacts/6')
  await call(one, 'existing as ddur', 'ddur', 'GET', '/contacts/6')
  await call(one, 'unknown', 'cchaplin', 'GET', '/contacts/99999')
  await call(one, 'not an integer', 'cchaplin', 'GET', '/contacts/abc')

  const create = 'contacts-create'
  const newContact = {
    civility: 'title2',
    firstname: 'Annie',
    lastname: 'Capture',
    company: 'Piscine municipale',
    function: 'Directrice',
    addressNumber: '12',
    addressStreet: 'rue des Bains',
    addressPostcode: '99000',
    addressTown: 'Maarch-les-Bains',
    addressCountry: 'France',
    email: 'annie.capture@example.org',
    phone: '0102030405',
    notes: 'créée par le recorder',
    externalId: { ia_tmp_contact_id: '42' },
  }
  const created = await call(create, 'new', 'cchaplin', 'POST', '/contacts', { body: newContact })
  await call(create, 'duplicate mail without allowDuplicateMail', 'cchaplin', 'POST', '/contacts', {
    body: { ...newContact, firstname: 'Annie bis' },
  })
  await call(create, 'duplicate mail with allowDuplicateMail=true', 'cchaplin', 'POST', '/contacts', {
    query: { allowDuplicateMail: 'true' },
    body: { ...newContact, firstname: 'Annie ter' },
  })
  await call(create, 'company only', 'cchaplin', 'POST', '/contacts', { body: { company: 'Société seule' } })
  await call(create, 'lastname only', 'cchaplin', 'POST', '/contacts', { body: { lastname: 'Seul' } })
  await call(create, 'missing lastname and company', 'cchaplin', 'POST', '/contacts', {
    body: { firstname: 'Prénom' },
  })
  await call(create, 'empty body', 'cchaplin', 'POST', '/contacts', { body: {} })
  await call(create, 'lastname not a string', 'cchaplin', 'POST', '/contacts', { body: { lastname: 12 } })
  await call(create, 'company not a string', 'cchaplin', 'POST', '/contacts', { body: { company: ['x'] } })
  await call(create, 'email not a string', 'cchaplin', 'POST', '/contacts', {
    body: { lastname: 'Typé', email: 12 },
  })
  await call(create, 'invalid email', 'cchaplin', 'POST', '/contacts', {
    body: { lastname: 'Mail', email: 'not-a-mail' },
  })
  await call(create, 'civility an integer', 'cchaplin', 'POST', '/contacts', {
    body: { lastname: 'Civ', civility: 1 },
  })
  await call(create, 'unknown civility', 'cchaplin', 'POST', '/contacts', {
    body: { lastname: 'Civ', civility: 'title99' },
  })
  await call(create, '10,000-character lastname', 'cchaplin', 'POST', '/contacts', {
    body: { lastname: long('L') },
  })
  for (const field of [
    'firstname',
    'company',
    'function',
    'department',
    'addressStreet',
    'addressAdditional1',
    'addressTown',
    'phone',
  ]) {
    await call(create, `10,000-character ${field}`, 'cchaplin', 'POST', '/contacts', {
      body: { lastname: 'Long', [field]: long('x') },
    })
  }
  await call(create, '10,000-character email', 'cchaplin', 'POST', '/contacts', {
    body: { lastname: 'Long', email: `${long('e')}@example.org` },
  })
  await call(create, '10,000-character notes only', 'cchaplin', 'POST', '/contacts', {
    body: { lastname: 'Notes longues', notes: long('N') },
  })
  await call(create, 'externalId not an object', 'cchaplin', 'POST', '/contacts', {
    body: { lastname: 'Ext', externalId: 'abc' },
  })
  await call(create, 'communicationMeans', 'cchaplin', 'POST', '/contacts', {
    body: { lastname: 'Comm', communicationMeans: { email: 'comm@example.org' } },
  })
  await call(create, 'body not JSON', 'cchaplin', 'POST', '/contacts', { body: '{not json' })
  await call(create, 'as ddur (no create_contacts)', 'ddur', 'POST', '/contacts', {
    body: { lastname: 'Interdit' },
  })
  await call(create, 'as bbain', 'bbain', 'POST', '/contacts', { body: { lastname: 'Agent', company: 'PJS' } })
  await call(create, 'duplicate mail as bbain (standard user)', 'bbain', 'POST', '/contacts', {
    body: { lastname: 'Capture', email: newContact.email },
  })

  const id = created.body?.id
  const update = 'contacts-update'
  await call(update, 'externalId as the client sends it', 'cchaplin', 'PUT', `/contacts/${id}`, {
    body: { ...newContact, id, externalId: { ia_tmp_contact_id: '43' } },
  })
  await call(update, 'externalId m2m not SIRET/entityId', 'cchaplin', 'PUT', `/contacts/${id}`, {
    body: { ...newContact, id, externalId: { m2m: 'ABC' } },
  })
  await call(update, 'read back', 'cchaplin', 'GET', `/contacts/${id}`)
  await call(update, 'only lastname (other fields emptied)', 'cchaplin', 'PUT', `/contacts/${id}`, {
    body: { lastname: 'Capture' },
  })
  await call(update, 'read back after partial body', 'cchaplin', 'GET', `/contacts/${id}`)
  await call(update, 'missing lastname and company', 'cchaplin', 'PUT', `/contacts/${id}`, {
    body: { firstname: 'x' },
  })
  await call(update, '10,000-character lastname', 'cchaplin', 'PUT', `/contacts/${id}`, {
    body: { lastname: long('L') },
  })
  await call(update, 'unknown id', 'cchaplin', 'PUT', '/contacts/99999', { body: { lastname: 'x' } })
  await call(update, 'not an integer id', 'cchaplin', 'PUT', '/contacts/abc', { body: { lastname: 'x' } })
  await call(update, 'as ddur (no update_contacts)', 'ddur', 'PUT', `/contacts/${id}`, {
    body: { lastname: 'x' },
  })
  return id
}

// Users' ids in the sample data (users.id), for `typist`.
const userIds = { cchaplin: 24, bbain: 19, ddur: 5 }

async function createLetter(user, contactId, subject, destination) {
  return call('resources-create', subject, user, 'POST', '/resources', {
    body: {
      encodedFile: tinyPdf(subject),
      format: 'pdf',
      priority: 'poiuytre1357nbvc',
      status: 'NEW',
      chrono: true,
      doctype: 101,
      modelId: 1,
      typist: userIds[user],
      subject,
      destination,
      senders: contactId ? [{ id: contactId, type: 'contact' }] : [],
      documentDate: '2026-11-20',
      arrivaldate: '2026-11-26 10:00:00.000000',
      customFields: {},
      diffusionList: [],
      emptyDiffusionList: true,
      processLimitDate: '2027-01-08 00:00:00',
    },
  })
}

async function notes(resId) {
  const create = 'notes-create'
  const plain = await call(create, 'note', 'cchaplin', 'POST', '/notes', {
    body: { resId, value: 'Note du recorder' },
  })
  const restricted = await call(create, 'note restricted to entities', 'cchaplin', 'POST', '/notes', {
    body: { resId, value: 'Note réservée à PJS et DGS', entities: ['PJS', 'DGS'] },
  })
  await call(create, 'unknown entity', 'cchaplin', 'POST', '/notes', {
    body: { resId, value: 'x', entities: ['NOPE'] },
  })
  await call(create, 'entities not an array', 'cchaplin', 'POST', '/notes', {
    body: { resId, value: 'x', entities: 'PJS' },
  })
  await call(create, 'missing value', 'cchaplin', 'POST', '/notes', { body: { resId } })
  await call(create, 'value not a string', 'cchaplin', 'POST', '/notes', { body: { resId, value: 12 } })
  await call(create, 'missing resId', 'cchaplin', 'POST', '/notes', { body: { value: 'x' } })
  await call(create, 'resId not an integer', 'cchaplin', 'POST', '/notes', { body: { resId: 'abc', value: 'x' } })
  await call(create, 'unknown resId', 'cchaplin', 'POST', '/notes', { body: { resId: 99999, value: 'x' } })
  await call(create, 'out of perimeter (bbain on a PTE record)', 'bbain', 'POST', '/notes', {
    body: { resId: 2, value: 'x' },
  })
  await call(create, 'in perimeter (bbain on a PJS record)', 'bbain', 'POST', '/notes', {
    body: { resId: 1, value: 'Note de bbain, réservée à PTE', entities: ['PTE'] },
  })
  await call(create, 'as ddur (perimeter 1=0)', 'ddur', 'POST', '/notes', { body: { resId: 1, value: 'x' } })
  await call(create, '10,000-character value', 'cchaplin', 'POST', '/notes', {
    body: { resId, value: long('n') },
  })

  const read = 'notes-read'
  await call(read, 'notes of the letter as cchaplin', 'cchaplin', 'GET', `/resources/${resId}/notes`)
  await call(read, 'notes of record 1 as cchaplin', 'cchaplin', 'GET', '/resources/1/notes')
  await call(read, 'notes of record 1 as bbain (PJS)', 'bbain', 'GET', '/resources/1/notes')
  await call(read, 'notes of record 1 as ppetit', 'ppetit', 'GET', '/resources/1/notes')
  await call(read, 'notes of a record out of perimeter (bbain)', 'bbain', 'GET', '/resources/2/notes')
  await call(read, 'notes of an unknown record', 'cchaplin', 'GET', '/resources/99999/notes')
  await call(read, 'notes of a non-integer record', 'cchaplin', 'GET', '/resources/abc/notes')
  await call(read, 'notes with a non-integer limit', 'cchaplin', 'GET', `/resources/${resId}/notes`, {
    query: { limit: 'abc' },
  })
  await call(read, 'notes with limit 1', 'cchaplin', 'GET', `/resources/${resId}/notes`, { query: { limit: 1 } })
  await call(read, 'one note', 'cchaplin', 'GET', `/notes/${plain.body?.noteId}`)
  await call(read, 'restricted note as its author', 'cchaplin', 'GET', `/notes/${restricted.body?.noteId}`)
  await call(read, 'restricted note as bbain (PJS)', 'bbain', 'GET', `/notes/${restricted.body?.noteId}`)
  await call(read, 'unknown note', 'cchaplin', 'GET', '/notes/99999')
  await call(read, 'non-integer note', 'cchaplin', 'GET', '/notes/abc')
}

async function attachments(resId) {
  const create = 'attachments-create'
  const first = await call(create, 'response project', 'cchaplin', 'POST', '/attachments', {
    body: {
      resIdMaster: resId,
      type: 'response_project',
      title: 'Projet de réponse',
      status: 'A_TRA',
      encodedFile: tinyPdf('Projet de reponse'),
      format: 'pdf',
    },
  })
  await call(create, 'simple attachment with chrono and recipient', 'cchaplin', 'POST', '/attachments', {
    body: {
      resIdMaster: resId,
      type: 'simple_attachment',
      title: 'Pièce jointe',
      status: 'A_TRA',
      chrono: 'MAARCH/2026D/REC1',
      recipientId: 1,
      recipientType: 'contact',
      validationDate: '2027-01-01',
      encodedFile: tinyPdf('Piece jointe'),
      format: 'pdf',
    },
  })
  const version = await call(create, 'new version (originId)', 'cchaplin', 'POST', '/attachments', {
    body: {
      resIdMaster: resId,
      originId: first.body?.id,
      type: 'response_project',
      title: 'Projet de réponse v2',
      status: 'A_TRA',
      encodedFile: tinyPdf('Projet de reponse v2'),
      format: 'pdf',
    },
  })
  const valid = {
    resIdMaster: resId,
    type: 'simple_attachment',
    title: 'x',
    status: 'A_TRA',
    encodedFile: tinyPdf('x'),
    format: 'pdf',
  }
  const bad = [
    ['missing encodedFile', { ...valid, encodedFile: undefined }],
    ['missing format', { ...valid, format: undefined }],
    ['missing resIdMaster', { ...valid, resIdMaster: undefined }],
    ['resIdMaster not an integer', { ...valid, resIdMaster: 'abc' }],
    ['unknown resIdMaster', { ...valid, resIdMaster: 99999 }],
    ['missing type', { ...valid, type: undefined }],
    ['unknown type', { ...valid, type: 'nope' }],
    ['missing title', { ...valid, title: undefined }],
    ['title not a string', { ...valid, title: 12 }],
    ['10,000-character title', { ...valid, title: long('t') }],
    ['status unknown', { ...valid, status: 'NOPE' }],
    ['format not allowed', { ...valid, format: 'exe' }],
    ['encodedFile not base64', { ...valid, encodedFile: '%%%not base64%%%' }],
    ['unknown originId', { ...valid, originId: 99999 }],
    ['signed_response without originId', { ...valid, type: 'signed_response' }],
    ['recipientType without recipientId', { ...valid, recipientType: 'contact' }],
    ['unknown recipient contact', { ...valid, recipientId: 99999, recipientType: 'contact' }],
    ['recipientType not user or contact', { ...valid, recipientId: 1, recipientType: 'entity' }],
    ['recipientId not an integer', { ...valid, recipientId: 'abc', recipientType: 'contact' }],
    ['originId not an integer', { ...valid, originId: 'abc' }],
    ['originId is a version', { ...valid, type: 'response_project', originId: version.body?.id }],
    ['originId of another record', { ...valid, resIdMaster: 1, originId: first.body?.id }],
    ['validationDate not a date', { ...valid, validationDate: 'tomorrow' }],
    ['empty body', {}],
  ]
  for (const [name, body] of bad) await call(create, name, 'cchaplin', 'POST', '/attachments', { body })
  await call(create, 'out of perimeter (bbain on a PTE record)', 'bbain', 'POST', '/attachments', {
    body: { ...valid, resIdMaster: 2 },
  })
  await call(create, 'as ddur (no manage_attachments)', 'ddur', 'POST', '/attachments', { body: valid })

  const read = 'attachments-read'
  await call(read, 'attachments of the letter', 'cchaplin', 'GET', `/resources/${resId}/attachments`)
  await call(read, 'attachments of record 1 as bbain', 'bbain', 'GET', '/resources/1/attachments')
  await call(read, 'attachments of a record out of perimeter', 'bbain', 'GET', '/resources/2/attachments')
  await call(read, 'attachments of an unknown record', 'cchaplin', 'GET', '/resources/99999/attachments')
  await call(read, 'attachments of a non-integer record', 'cchaplin', 'GET', '/resources/abc/attachments')
  await call(read, 'attachments with a non-integer limit', 'cchaplin', 'GET', `/resources/${resId}/attachments`, {
    query: { limit: 'abc' },
  })
  await call(read, 'the first version, once superseded', 'cchaplin', 'GET', `/attachments/${first.body?.id}`)
  await call(read, 'one attachment', 'cchaplin', 'GET', `/attachments/${first.body?.id + 1}`)
  await call(read, 'the new version (versions listed)', 'cchaplin', 'GET', `/attachments/${version.body?.id}`)
  await call(read, 'sample attachment 1 as bbain', 'bbain', 'GET', '/attachments/1')
  await call(read, 'sample attachment 2 as bbain (out of perimeter)', 'bbain', 'GET', '/attachments/2')
  await call(read, 'unknown attachment', 'cchaplin', 'GET', '/attachments/99999')
  await call(read, 'non-integer attachment', 'cchaplin', 'GET', '/attachments/abc')

  const content = 'attachments-content'
  for (const id of [first.body?.id, version.body?.id, 1]) {
    await call(content, `content of ${id}`, 'cchaplin', 'GET', `/attachments/${id}/content`)
    await call(content, `content of ${id}, mode base64`, 'cchaplin', 'GET', `/attachments/${id}/content`, {
      query: { mode: 'base64' },
    })
    await call(content, `original content of ${id}`, 'cchaplin', 'GET', `/attachments/${id}/originalContent`)
    await call(
      content,
      `original content of ${id}, mode base64`,
      'cchaplin',
      'GET',
      `/attachments/${id}/originalContent`,
      {
        query: { mode: 'base64' },
      },
    )
  }
  await call(content, 'content out of perimeter', 'bbain', 'GET', '/attachments/2/content')
  await call(content, 'content of an unknown attachment', 'cchaplin', 'GET', '/attachments/99999/content')
  await call(
    content,
    'original content of an unknown attachment',
    'cchaplin',
    'GET',
    '/attachments/99999/originalContent',
  )
  return first.body?.id
}

async function links(resId) {
  const file = 'linked-resources'
  await call(file, 'none yet', 'cchaplin', 'GET', `/resources/${resId}/linkedResources`)
  await call(file, 'link two records', 'cchaplin', 'POST', `/resources/${resId}/linkedResources`, {
    body: { linkedResources: [1, 3] },
  })
  await call(file, 'read back', 'cchaplin', 'GET', `/resources/${resId}/linkedResources`)
  await call(file, 'read back from the other side', 'cchaplin', 'GET', '/resources/1/linkedResources')
  await call(file, 'link again (already linked)', 'cchaplin', 'POST', `/resources/${resId}/linkedResources`, {
    body: { linkedResources: [1] },
  })
  await call(file, 'link to itself', 'cchaplin', 'POST', `/resources/${resId}/linkedResources`, {
    body: { linkedResources: [resId] },
  })
  await call(file, 'linkedResources missing', 'cchaplin', 'POST', `/resources/${resId}/linkedResources`, {
    body: {},
  })
  await call(file, 'linkedResources not an array', 'cchaplin', 'POST', `/resources/${resId}/linkedResources`, {
    body: { linkedResources: 1 },
  })
  await call(file, 'linkedResources of strings', 'cchaplin', 'POST', `/resources/${resId}/linkedResources`, {
    body: { linkedResources: ['abc'] },
  })
  await call(file, 'unknown linked record', 'cchaplin', 'POST', `/resources/${resId}/linkedResources`, {
    body: { linkedResources: [99999] },
  })
  await call(file, 'unknown record', 'cchaplin', 'POST', '/resources/99999/linkedResources', {
    body: { linkedResources: [1] },
  })
  await call(file, 'bbain: record in perimeter, linked out of it', 'bbain', 'POST', '/resources/1/linkedResources', {
    body: { linkedResources: [2] },
  })
  await call(file, 'bbain: record out of perimeter', 'bbain', 'POST', '/resources/2/linkedResources', {
    body: { linkedResources: [1] },
  })
  await call(file, 'bbain: both in perimeter', 'bbain', 'POST', '/resources/1/linkedResources', {
    body: { linkedResources: [4] },
  })
  await call(
    file,
    'bbain reads record 1 (links out of perimeter hidden?)',
    'bbain',
    'GET',
    '/resources/1/linkedResources',
  )
  await call(file, 'bbain reads a record out of perimeter', 'bbain', 'GET', '/resources/2/linkedResources')
  await call(file, 'ddur links (no add_links)', 'ddur', 'POST', '/resources/1/linkedResources', {
    body: { linkedResources: [4] },
  })
  await call(file, 'unlink', 'cchaplin', 'DELETE', `/resources/${resId}/linkedResources/3`)
  await call(file, 'read back after unlink', 'cchaplin', 'GET', `/resources/${resId}/linkedResources`)
  await call(file, 'unlink a record not linked', 'cchaplin', 'DELETE', `/resources/${resId}/linkedResources/5`)
  await call(file, 'unlink an unknown record', 'cchaplin', 'DELETE', `/resources/${resId}/linkedResources/99999`)
  await call(file, 'ddur unlinks (no add_links)', 'ddur', 'DELETE', '/resources/1/linkedResources/4')
  await call(
    file,
    'bbain unlinks a record out of perimeter',
    'bbain',
    'DELETE',
    `/resources/1/linkedResources/${resId}`,
  )
  await call(file, 'linked resources of an unknown record', 'cchaplin', 'GET', '/resources/99999/linkedResources')
}

async function search(chrono) {
  const file = 'search'
  const bodies = [
    ['chrono, exact', { chrono: { values: chrono } }],
    ['chrono, sample record', { chrono: { values: 'MAARCH/2020A/1' } }],
    ['chrono, partial', { chrono: { values: '2020A/1' } }],
    ['chrono, unknown', { chrono: { values: 'MAARCH/1999A/1' } }],
    ['meta quick search', { meta: { values: 'piscine' } }],
    ['meta quick search on a chrono', { meta: { values: 'MAARCH/2020A/3' } }],
    ['subject', { subject: { values: 'Demande' } }],
    ['chrono between quotes', { chrono: { values: '"MAARCH/2020A/1"' } }],
    ['meta between quotes (exact)', { meta: { values: '"MAARCH/2020A/1"' } }],
    ['meta digits (also res_id)', { meta: { values: '3' } }],
    ['status (status.identifier)', { status: { values: [5, 4] } }],
    ['status as objects (500 in 20.10)', { status: { values: [{ id: 'NEW' }] } }],
    ['status as status ids', { status: { values: ['NEW'] } }],
    ['doctype', { doctype: { values: [505] } }],
    ['doctype as objects (500 in 20.10)', { doctype: { values: [{ id: 505 }] } }],
    ['category', { category: { values: ['outgoing'] } }],
    ['category as objects', { category: { values: [{ id: 'outgoing' }] } }],
    ['destination (entities.id)', { destination: { values: [6] } }],
    ['destination with null', { destination: { values: [6, null] } }],
    ['destination as objects (500 in 20.10)', { destination: { values: [{ id: 6 }] } }],
    ['priority', { priority: { values: ['poiuytre1357nbvc'] } }],
    ['resId range', { resId: { values: { start: 3, end: 6 } } }],
    ['barcode', { barcode: { values: 'x' } }],
    ['notes', { notes: { values: 'recorder' } }],
    ['tags', { tags: { values: [1] } }],
    ['processLimitDate range', { processLimitDate: { values: { start: '2020-01-01', end: '2030-12-31' } } }],
    ['creationDate range', { creationDate: { values: { start: '2020-01-01', end: '2030-12-31' } } }],
    ['documentDate range', { documentDate: { values: { start: '2020-01-01', end: '2021-12-31' } } }],
    ['arrivalDate range', { arrivalDate: { values: { start: '2026-01-01', end: '2026-12-31' } } }],
    ['senders', { senders: { values: [{ id: 6, type: 'contact' }] } }],
    ['senders as text', { senders: { values: 'PASCONTENT' } }],
    ['recipients', { recipients: { values: [{ id: 1, type: 'contact' }] } }],
    ['closingDate range', { closingDate: { values: { start: '2020-01-01', end: '2030-12-31' } } }],
    ['combined status and category', { status: { values: [10] }, category: { values: ['incoming'] } }],
    ['senders as contact ids', { senders: { values: [6] } }],
    ['empty body', {}],
    ['unknown criterion', { nope: { values: 'x' } }],
    ['chrono values not a string', { chrono: { values: 12 } }],
    ['chrono without values', { chrono: 'MAARCH/2020A/1' }],
    ['status values not an array', { status: { values: 'NEW' } }],
    ['dates not dates', { creationDate: { values: { start: 'yesterday', end: 12 } } }],
  ]
  for (const [name, body] of bodies) await call(file, name, 'cchaplin', 'POST', '/search', { body })
  await call(file, 'paging and order', 'cchaplin', 'POST', '/search', {
    query: { offset: 5, limit: 3, order: 'chrono', orderDir: 'DESC' },
    body: { category: { values: ['incoming'] } },
  })
  await call(file, 'offset beyond the end', 'cchaplin', 'POST', '/search', {
    query: { offset: 500 },
    body: {},
  })
  await call(file, 'bbain: everything in perimeter', 'bbain', 'POST', '/search', { body: {} })
  await call(file, 'bbain: chrono out of perimeter', 'bbain', 'POST', '/search', {
    body: { chrono: { values: 'MAARCH/2020A/2' } },
  })
  await call(file, 'ddur (perimeter 1=0)', 'ddur', 'POST', '/search', {
    body: { chrono: { values: 'MAARCH/2020A/1' } },
  })
  await call(file, 'body not JSON', 'cchaplin', 'POST', '/search', { body: '{not json' })
  await call('search-configuration', 'configuration', 'cchaplin', 'GET', '/search/configuration')
}

async function listInstanceAndStatus(resId) {
  const file = 'list-instance'
  await call(file, 'created letter', 'cchaplin', 'GET', `/resources/${resId}/listInstance`)
  await call(file, 'sample record 1 as cchaplin', 'cchaplin', 'GET', '/resources/1/listInstance')
  await call(file, 'sample record 1 as bbain', 'bbain', 'GET', '/resources/1/listInstance')
  await call(file, 'out of perimeter (bbain)', 'bbain', 'GET', '/resources/2/listInstance')
  await call(file, 'unknown record', 'cchaplin', 'GET', '/resources/99999/listInstance')
  await call(file, 'non-integer record', 'cchaplin', 'GET', '/resources/abc/listInstance')

  const status = 'resource-status'
  await call(status, 'change status', 'cchaplin', 'PUT', '/res/resource/status', {
    body: { status: 'ATT_MP', resId: [resId] },
  })
  await call(status, 'with historyMessage', 'cchaplin', 'PUT', '/res/resource/status', {
    body: { status: 'END', resId: [resId], historyMessage: 'Réconciliation : clôture' },
  })
  await call(status, 'by chrono', 'cchaplin', 'PUT', '/res/resource/status', {
    body: { status: 'ATT_MP', chrono: ['MAARCH/2020A/3'] },
  })
  await call(status, 'unknown status', 'cchaplin', 'PUT', '/res/resource/status', {
    body: { status: 'NOPE', resId: [resId] },
  })
  await call(status, 'missing resId and chrono', 'cchaplin', 'PUT', '/res/resource/status', {
    body: { status: 'END' },
  })
  await call(status, 'unknown record', 'cchaplin', 'PUT', '/res/resource/status', {
    body: { status: 'END', resId: [99999] },
  })
  await call(status, 'out of perimeter (bbain)', 'bbain', 'PUT', '/res/resource/status', {
    body: { status: 'END', resId: [2] },
  })
  await call(status, 'a known then an unknown record', 'cchaplin', 'PUT', '/res/resource/status', {
    body: { status: 'NEW', resId: [resId, 99999] },
  })
  await call(status, 'the known record after the 400 (changed: not atomic)', 'cchaplin', 'GET', `/resources/${resId}`)
}

// The capture client's workflow, in its order, with the bodies WebServices.py sends.
async function captureWorkflow() {
  const file = 'capture-workflow'
  const user = 'cchaplin'
  await call(file, 'check connection', null, 'GET', '')
  await call(file, 'retrieve_entities', user, 'GET', '/entities')
  await call(file, 'retrieve_doctypes', user, 'GET', '/doctypes')
  await call(file, 'retrieve_users', user, 'GET', '/users')
  await call(file, 'retrieve_custom_fields', user, 'GET', '/customFields')
  const contact = await call(file, 'create_contact', user, 'POST', '/contacts', {
    query: { allowDuplicateMail: 'true' },
    body: {
      company: 'Open-Capture SARL',
      firstname: 'Oscar',
      lastname: 'Capture',
      email: 'oscar.capture@example.org',
      phone: '0600000000',
      addressNumber: '1',
      addressStreet: 'rue du Scanner',
      addressPostcode: '99000',
      addressTown: 'Maarch-les-Bains',
      externalId: { ia_tmp_contact_id: '7' },
    },
  })
  const contactId = contact.body?.id
  const read = await call(file, 'retrieve_contact_by_id', user, 'GET', `/contacts/${contactId}`)
  await call(file, 'update_contact_external_id', user, 'PUT', `/contacts/${contactId}`, {
    body: { ...read.body, externalId: { ...(read.body?.externalId ?? {}), ia_tmp_contact_id: '8' } },
  })
  await call(file, 'calcul_process_limit_date: retrieve_doctype', user, 'GET', '/doctypes/types/101')
  await call(file, 'calcul_process_limit_date: retrieve_workings_days', user, 'GET', '/parameters/workingDays')
  const letter = await call(file, 'insert_with_args', user, 'POST', '/resources', {
    body: {
      encodedFile: tinyPdf('Lettre capturee'),
      priority: 'poiuytre1357nbvc',
      status: 'NEW',
      chrono: true,
      doctype: '101',
      format: 'pdf',
      modelId: '1',
      typist: '24',
      subject: "DEMANDE D'INSCRIPTION A LA PISCINE",
      destination: '13',
      senders: [{ id: contactId, type: 'contact' }],
      documentDate: null,
      arrivaldate: '2026-11-26 10:00:00.000000',
      customFields: {},
      diffusionList: [],
      processLimitDate: '2027-01-08 00:00:00',
      externalId: { ia_tmp_contact_id: '7' },
      emptyDiffusionList: true,
    },
  })
  const resId = letter.body?.resId
  await call(file, 'insert_note', user, 'POST', '/notes', { body: { resId, value: 'Courrier capturé' } })
  for (const title of ['Rapprochement note interne', 'Pièce jointe du mail']) {
    await call(file, `insert_attachment: ${title}`, user, 'POST', '/attachments', {
      body: {
        status: 'A_TRA',
        title,
        type: title.startsWith('Rapprochement') ? 'response_project' : 'simple_attachment',
        resIdMaster: resId,
        encodedFile: tinyPdf(title.normalize('NFD').replace(/[^\x20-\x7e]/g, '')),
        format: 'pdf',
      },
    })
  }
  await call(file, 'link_documents', user, 'POST', `/resources/${resId}/linkedResources`, {
    body: { linkedResources: [1] },
  })
  await call(file, 'linked resources read back', user, 'GET', `/resources/${resId}/linkedResources`)
  const chrono = (await call(file, 'letter read back (chrono)', user, 'GET', `/resources/${resId}`)).body?.chrono
  await call(file, 'retrieve_res_id_master_by_chrono', user, 'POST', '/search', {
    body: { chrono: { values: chrono } },
  })
  await call(file, 'retrieve_listinstance', user, 'GET', `/resources/${resId}/listInstance`)
  await call(file, 'change_status', user, 'PUT', '/res/resource/status', {
    body: {
      status: 'END',
      resId: [resId],
      historyMessage: 'Réconciliation : clôture du document cible dans le cadre de la réconciliation automatique',
    },
  })
  await call(file, 'status read back', user, 'GET', `/resources/${resId}`)
  return { contactId, resId, chrono }
}

/**
 * The criteria of 20.10's search form beyond the capture client's (issue 32): diffusion-list roles, sender
 * departments, signatory groups, registered mail and custom fields, on the sample's own data (bbain is user 19,
 * ppetit 10 and a signatory of record 19, entity DSG 12 is in copy of most records, group 4 is RESPONSABLE).
 */
async function searchCriteria() {
  const file = 'search-criteria'
  const bodies = [
    ['role_dest, a user', { role_dest: { values: [{ id: 19, type: 'user' }] } }],
    ['role_dest, a user who is dest of nothing', { role_dest: { values: [{ id: 22, type: 'user' }] } }],
    ['role_cc, an entity', { role_cc: { values: [{ id: 12, type: 'entity' }] } }],
    ['role_dest, null', { role_dest: { values: [null] } }],
    ['role_sign', { role_sign: { values: [{ id: 10, type: 'user' }] } }],
    ['role_visa', { role_visa: { values: [{ id: 17, type: 'user' }] } }],
    ['role_dest as bare ids', { role_dest: { values: [19] } }],
    ['senderDepartment', { senderDepartment: { values: ['99'] } }],
    ['senderDepartment, no contact there', { senderDepartment: { values: ['13'] } }],
    ['groupSign', { groupSign: { values: [4] } }],
    ['registeredMail_reference', { registeredMail_reference: { values: '2C' } }],
    ['registeredMail_issuingSite', { registeredMail_issuingSite: { values: [1] } }],
    ['registeredMail_receivedDate', { registeredMail_receivedDate: { values: { start: '2020-01-01' } } }],
    ['registeredMail_recipient', { registeredMail_recipient: { values: [{ id: 1, type: 'contact' }] } }],
    ['indexingCustomField string', { indexingCustomField_4: { values: 'REF' } }],
    ['indexingCustomField select', { indexingCustomField_3: { values: ['Courriel'] } }],
    ['indexingCustomField date', { indexingCustomField_1: { values: { start: '2020-01-01', end: '2030-12-31' } } }],
    ['indexingCustomField unknown', { indexingCustomField_99: { values: 'x' } }],
  ]
  for (const [name, body] of bodies) await call(file, name, 'cchaplin', 'POST', '/search', { body })
}

/**
 * Who may change or remove an attachment (`manage_attachments`, checked by 20.10's PUT and DELETE
 * /attachments/{id} only): its typist, a holder of the privilege, no one else. Recorded by itself on a fresh
 * instance (`--only=attachments-manage`): cchaplin (WEBSERVICE, privilege) files a PJS letter and attachments;
 * bbain (AGENT of PJS, privilege) and ggrand (ARCHIVISTE, perimeter 1=1, no privilege) change and remove them.
 */
async function attachmentsManage() {
  const file = 'attachments-manage'
  const letter = await call(file, 'a PJS letter filed by cchaplin', 'cchaplin', 'POST', '/resources', {
    body: {
      encodedFile: tinyPdf('Lettre'),
      format: 'pdf',
      status: 'NEW',
      doctype: 101,
      modelId: 1,
      typist: userIds.cchaplin,
      subject: 'Lettre aux pieces jointes',
      destination: 6,
    },
  })
  const resId = letter.body?.resId
  const attach = async (user, title, extra = {}) =>
    (
      await call(file, `attachment "${title}" by ${user}`, user, 'POST', '/attachments', {
        body: {
          resIdMaster: resId,
          type: 'simple_attachment',
          title,
          status: 'A_TRA',
          encodedFile: tinyPdf(title),
          format: 'pdf',
          ...extra,
        },
      })
    ).body?.id
  const byCchaplin = await attach('cchaplin', 'Piece de cchaplin')
  const second = await attach('cchaplin', 'Seconde piece de cchaplin')
  const versioned = await attach('cchaplin', 'Piece versionnee')
  const version = await attach('cchaplin', 'Piece versionnee v2', { originId: versioned })
  const byGgrand = await attach('ggrand', 'Piece de ggrand')
  const toRemoveByGgrand = await attach('ggrand', 'Autre piece de ggrand')
  const update = { type: 'simple_attachment', title: 'Titre change' }

  await call(
    file,
    "update another typist's attachment without manage_attachments",
    'ggrand',
    'PUT',
    `/attachments/${byCchaplin}`,
    { body: update },
  )
  await call(
    file,
    "remove another typist's attachment without manage_attachments",
    'ggrand',
    'DELETE',
    `/attachments/${byCchaplin}`,
  )
  await call(file, 'the attachment is still there', 'cchaplin', 'GET', `/attachments/${byCchaplin}`)
  await call(file, 'update out of perimeter', 'ddur', 'PUT', `/attachments/${byCchaplin}`, { body: update })
  await call(file, 'remove out of perimeter', 'ddur', 'DELETE', `/attachments/${byCchaplin}`)
  await call(
    file,
    'remove a sample attachment out of perimeter, with manage_attachments',
    'bbain',
    'DELETE',
    '/attachments/2',
  )
  await call(
    file,
    'update a sample attachment out of perimeter, with manage_attachments',
    'bbain',
    'PUT',
    '/attachments/2',
    { body: update },
  )
  await call(
    file,
    "update one's own attachment without manage_attachments",
    'ggrand',
    'PUT',
    `/attachments/${byGgrand}`,
    { body: update },
  )
  await call(
    file,
    "remove one's own attachment without manage_attachments",
    'ggrand',
    'DELETE',
    `/attachments/${toRemoveByGgrand}`,
  )
  await call(
    file,
    "update another typist's attachment with manage_attachments",
    'bbain',
    'PUT',
    `/attachments/${byCchaplin}`,
    { body: update },
  )
  await call(file, 'the updated attachment', 'cchaplin', 'GET', `/attachments/${byCchaplin}`)
  await call(
    file,
    "remove another typist's attachment with manage_attachments",
    'bbain',
    'DELETE',
    `/attachments/${byCchaplin}`,
  )
  await call(file, 'the removed attachment', 'cchaplin', 'GET', `/attachments/${byCchaplin}`)
  await call(file, 'remove it again', 'bbain', 'DELETE', `/attachments/${byCchaplin}`)
  await call(file, 'update it once removed', 'bbain', 'PUT', `/attachments/${byCchaplin}`, { body: update })
  await call(file, 'remove a version (with manage_attachments)', 'bbain', 'DELETE', `/attachments/${version}`)
  await call(file, 'the original of the removed version', 'cchaplin', 'GET', `/attachments/${versioned}`)
  await call(file, 'remove an unknown attachment', 'bbain', 'DELETE', '/attachments/99999')
  await call(file, 'update an unknown attachment', 'bbain', 'PUT', '/attachments/99999', { body: update })
  await call(file, 'remove a non-integer attachment', 'bbain', 'DELETE', '/attachments/abc')
  await call(file, 'update with an empty body, as the typist', 'cchaplin', 'PUT', `/attachments/${second}`, {
    body: {},
  })
  await call(file, 'the attachments of the letter', 'cchaplin', 'GET', `/resources/${resId}/attachments`)
}

/** Maarch's database, for the recorders that read it with psql: `--database=<name>`, default `maarch`. */
function databaseArgument() {
  const given = process.argv.find((argument) => argument.startsWith('--database='))
  return given ? given.slice('--database='.length) : 'maarch'
}

async function main() {
  if (process.argv[4] === '--only=search-criteria') {
    // Recorded on a fresh instance by itself: the sample's data only, nothing the rest of the recorder creates.
    await searchCriteria()
    await mkdir(outDir, { recursive: true })
    await writeFile(join(outDir, 'search-criteria.json'), `${JSON.stringify(files.get('search-criteria'), null, 2)}\n`)
    return
  }
  if (process.argv[4] === '--only=attachments-manage') {
    await attachmentsManage()
    await mkdir(outDir, { recursive: true })
    await writeFile(
      join(outDir, 'attachments-manage.json'),
      `${JSON.stringify(files.get('attachments-manage'), null, 2)}\n`,
    )
    return
  }
  if (process.argv[4] === '--only=baskets') {
    // Recorded on a fresh instance by itself: it adds actions, files letters and runs actions on them.
    const ids = await recordBaskets({ call, tinyPdf, database: databaseArgument() })
    await mkdir(outDir, { recursive: true })
    for (const [file, exchanges] of files) {
      await writeFile(join(outDir, `${file}.json`), `${JSON.stringify(exchanges, null, 2)}\n`)
    }
    await writeFile(join(outDir, 'baskets-ids.json'), `${JSON.stringify(ids, null, 2)}\n`)
    console.log(`${[...files.values()].flat().length} exchanges in ${files.size} files under ${outDir}`)
    return
  }
  if (process.argv[4] === '--only=letter-page') {
    // Recorded on a fresh instance by itself: GETs on the sample's letters (files `letter-page-*`; the clerks'
    // homes and lists it reads to choose the letters are under `context`, not written).
    const ids = await recordLetterPage({ call, database: databaseArgument() })
    await mkdir(outDir, { recursive: true })
    for (const [file, exchanges] of files) {
      if (file.startsWith('letter-page-')) {
        await writeFile(join(outDir, `${file}.json`), `${JSON.stringify(exchanges, null, 2)}\n`)
      }
    }
    await writeFile(join(outDir, 'letter-page-ids.json'), `${JSON.stringify(ids, null, 2)}\n`)
    console.log(`${ids.cases.length} letters, ${files.size} files under ${outDir}`)
    return
  }
  await referenceData()
  const workflow = await captureWorkflow()
  const contactId = await contacts()
  const letter = await createLetter('cchaplin', contactId, 'Lettre du recorder', 13)
  await createLetter('bbain', contactId, 'Lettre de bbain', 6)
  await createLetter('ddur', null, 'Lettre de ddur', 6)
  const resId = letter.body?.resId
  await notes(resId)
  await attachments(resId)
  await links(resId)
  await search(workflow.chrono)
  await listInstanceAndStatus(resId)

  await mkdir(outDir, { recursive: true })
  for (const [file, exchanges] of files) {
    await writeFile(join(outDir, `${file}.json`), `${JSON.stringify(exchanges, null, 2)}\n`)
  }
  console.log(`${[...files.values()].flat().length} exchanges in ${files.size} files under ${outDir}`)
}

await main()

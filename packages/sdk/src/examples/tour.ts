/**
 * The tour of docs/tour.md, as code: every `#region` below is one ```ts block of that page, character for
 * character (tour.test.ts checks it and runs this function against a real server).
 */
import { writeFile } from 'node:fs/promises'
import { encodeBase64 } from '../base64.js'
import { createClient } from '../client.js'

/** What the tour needs: the server, the bytes of a PDF letter, and where to save the downloaded PDF. */
export interface TourInput {
  readonly baseUrl: string
  readonly letter: Uint8Array
  readonly downloadTo: string
}

/** Runs the tour; returns what each step produced so the test can check it. */
export async function tour({ baseUrl, letter, downloadTo }: TourInput) {
  // #region connect
  const mailroom = createClient({ baseUrl, auth: { login: 'bbain', password: 'maarch' } })
  // #endregion

  // #region create
  const { resId } = await mailroom.createRecord({
    modelId: 1, // Courrier arrivée
    status: 'NEW',
    subject: 'Demande de subvention du club de basket',
    destination: 6, // PJS, bbain's entity
    chrono: true,
    senders: [{ id: 1, type: 'contact' }],
    encodedFile: encodeBase64(letter),
    format: 'pdf',
  })
  // #endregion

  // #region search
  const { resources, count } = await mailroom.search({
    select: 'res_id, alt_identifier, subject, status',
    clause: "status = 'NEW' and subject like '%subvention%'",
    orderBy: ['res_id DESC'],
    limit: 10,
  })
  const chrono = resources.find((record) => record.res_id === resId)?.alt_identifier
  // #endregion

  // #region download
  const pdf = await mailroom.getContent(resId) // watermarked PDF bytes
  await writeFile(downloadTo, pdf)
  // #endregion

  // #region status
  await mailroom.updateStatus({ status: 'COU', resId: [resId], historyMessage: 'Pris en charge par le service' })
  const { history } = await mailroom.getHistory(resId)
  // #endregion

  // #region journal
  const { token } = await mailroom.authenticate('bbain', 'maarch')
  const journal = await mailroom.readJournal('21750001600019', { fromDate: '2024-01-01' }, { cookieToken: token })
  const deposit = journal.lifeCycleEvents.find((event) => event.eventInfo.some((info) => info.resId === String(resId)))
  const chain = await mailroom.verifyJournalChain('21750001600019')
  // #endregion

  return { resId, count, chrono, pdf, history, deposit, chain }
}

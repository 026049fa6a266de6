import {
  type ChangeAuthor,
  type DirectoryAccount,
  type DirectorySyncMappingInput,
  type NewUser,
  type OrganisationHistoryEntry,
  syncDirectoryUsers,
} from '@mailroom/core'
import { type Mailroom, verifyJournal } from '@mailroom/mailroom'

/** A history entry as commands print it and the operator socket carries it: its date as ISO 8601 text. */
export type HistoryLine = Omit<OrganisationHistoryEntry, 'date'> & { readonly date: string }

/**
 * What the command line does to a Mailroom, each in one call with JSON arguments and a JSON result: run
 * in the command's own process when it may open the database, or by the server holding the embedded
 * database, sent over its operator socket. Either way the same service call makes the change.
 */
export const OPERATOR_OPERATIONS = {
  addUser: (m: Mailroom, a: { user: NewUser; author: ChangeAuthor }) => m.organisation.addUser(a.user, a.author),
  setPassword: async (m: Mailroom, a: { login: string; password: string; author: ChangeAuthor }) => {
    await m.organisation.setPassword(a.login, a.password, a.author)
    return null
  },
  setEnabled: (m: Mailroom, a: { login: string; enabled: boolean; author: ChangeAuthor }) =>
    m.organisation.setEnabled(a.login, a.enabled, a.author),
  listUsers: (m: Mailroom, _: Record<string, never>) => m.organisation.listUsers(),
  exportOrganisation: (m: Mailroom, a: { withPasswordHashes: boolean }) =>
    m.organisation.export({ withPasswordHashes: a.withPasswordHashes }),
  applyOrganisation: async (
    m: Mailroom,
    a: { text: string; prune: boolean; dryRun: boolean; author: ChangeAuthor },
  ): Promise<{ lines: readonly string[]; applied: boolean }> => {
    const { lines, applied } = await m.organisation.apply(a.text, {
      prune: a.prune,
      dryRun: a.dryRun,
      author: a.author,
    })
    return { lines, applied }
  },
  syncDirectoryUsers: (
    m: Mailroom,
    a: { accounts: DirectoryAccount[]; mapping: DirectorySyncMappingInput; dryRun: boolean; author: ChangeAuthor },
  ) => syncDirectoryUsers(m.organisation, a.accounts, a.mapping, { dryRun: a.dryRun, author: a.author }),
  history: async (m: Mailroom, a: { limit: number }): Promise<HistoryLine[]> =>
    (await m.organisation.history({ limit: a.limit })).map((entry) => ({ ...entry, date: entry.date.toISOString() })),
  issueServiceToken: (m: Mailroom, a: { login: string }) => m.auth.issueServiceToken(a.login),
  loadDemo: (m: Mailroom, _: Record<string, never>) => m.loadDemo(),
  verifyJournal: (m: Mailroom, a: { safe?: string }) =>
    verifyJournal({ db: m.db, docservers: m.documentStore }, a.safe),
  fulltextStatus: (m: Mailroom, a: { failures: number }) => m.fulltext.status(a.failures),
  fulltextReindex: (m: Mailroom, _: Record<string, never>) => m.fulltext.reindex(),
} as const

/** The name of an operation the command line may ask of the server. */
export type OperationName = keyof typeof OPERATOR_OPERATIONS
/** The arguments of an operation. */
export type OperationArguments<K extends OperationName> = Parameters<(typeof OPERATOR_OPERATIONS)[K]>[1]
/** What an operation gives back. */
export type OperationResult<K extends OperationName> = Awaited<ReturnType<(typeof OPERATOR_OPERATIONS)[K]>>

/** True for a name of the table (what arrives on the socket is checked before it is called). */
export function isOperationName(name: string): name is OperationName {
  return Object.hasOwn(OPERATOR_OPERATIONS, name)
}

/** Runs one operation on an open Mailroom. */
export function runOperation<K extends OperationName>(
  mailroom: Mailroom,
  name: K,
  args: OperationArguments<K>,
): Promise<OperationResult<K>> {
  const operation = OPERATOR_OPERATIONS[name] as (m: Mailroom, a: OperationArguments<K>) => Promise<OperationResult<K>>
  return operation(mailroom, args)
}

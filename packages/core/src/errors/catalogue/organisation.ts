import { defineErrors } from '../error-definition.js'

/** Longest list of issues a message spells out; the rest are counted. */
const MAX_LISTED_ISSUES = 50

function listIssues(issues: readonly { readonly path: string; readonly message: string }[]): string {
  const lines = issues.slice(0, MAX_LISTED_ISSUES).map((issue) => `${issue.path}: ${issue.message}`)
  if (issues.length > MAX_LISTED_ISSUES) lines.push(`and ${issues.length - MAX_LISTED_ISSUES} more`)
  return lines.join('\n')
}

/** "<what> is not valid (n errors):" and the issues, one a line. */
function notValid(what: string) {
  return (d: { issues: readonly { path: string; message: string }[] }) =>
    `${what} is not valid (${d.issues.length} error${d.issues.length === 1 ? '' : 's'}):\n${listIssues(d.issues)}`
}

/** Errors of organisation documents and user administration (docs/organisation.md). */
export const ORGANISATION_ERRORS = defineErrors({
  ORGANISATION_NOT_PARSED: {
    kind: 'bad-request',
    message: (d: { reason: string }) => `Organisation document is not valid YAML or JSON: ${d.reason}`,
  },
  ORGANISATION_INVALID: { kind: 'bad-request', message: notValid('Organisation document') },
  ORGANISATION_REFUSED: {
    kind: 'conflict',
    message: (d: { issues: readonly { path: string; message: string }[] }) =>
      `Organisation document cannot be applied, nothing was changed:\n${listIssues(d.issues)}`,
  },
  ADMIN_ROOT_ONLY: { kind: 'forbidden', message: 'Only root users may administer the organisation' },
  USER_NOT_FOUND: { kind: 'not-found', message: (d: { login: string }) => `No user ${JSON.stringify(d.login)}` },
  USER_ALREADY_EXISTS: {
    kind: 'conflict',
    message: (d: { login: string }) => `User ${JSON.stringify(d.login)} already exists`,
  },
  PASSWORD_POLICY: {
    kind: 'bad-request',
    message: (d: { rules: readonly string[] }) => `Password does not follow the password rules: ${d.rules.join('; ')}`,
  },
  PASSWORD_MISSING: { kind: 'bad-request', message: 'Password is missing or empty' },
  DIRECTORY_MAPPING_INVALID: { kind: 'bad-request', message: notValid('Directory mapping') },
  DIRECTORY_SYNC_FOUND_NOBODY: {
    kind: 'conflict',
    message:
      'The directory search found nobody, nothing was changed: check MAILROOM_LDAP_SYNC_BASE and MAILROOM_LDAP_SYNC_FILTER',
  },
})

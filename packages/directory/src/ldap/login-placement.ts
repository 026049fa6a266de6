import { DN, Filter } from 'ldapts'

/** Where a template puts the login. */
export const LOGIN_PLACEHOLDER = '{login}'

/**
 * The bind name of a login from a template: a DN (`uid={login},ou=people,dc=example,dc=org`), whose login is
 * escaped as an attribute value (RFC 4514), or an Active Directory user principal name or down-level name
 * (`{login}@corp.example`, `CORP\{login}`), which the directory reads as a name, not as a DN.
 */
export function bindNameOf(template: string, login: string): string {
  return placed(template, escapeDnValue(login))
}

/** A search filter with the login in place, escaped (RFC 4515): `*)(uid=*` matches nobody, it finds no one else. */
export function searchFilterOf(template: string, login: string): string {
  return placed(template, Filter.escape(login))
}

/**
 * The template with the escaped login in place. A replacer function, not a replacement string: in a string,
 * the patterns $` and $' insert the template's text around the placeholder, so a login $` would put `(uid=`
 * in the filter.
 */
function placed(template: string, escapedLogin: string): string {
  return template.replaceAll(LOGIN_PLACEHOLDER, () => escapedLogin)
}

/** An attribute value escaped for a DN by ldapts' own DN writer. */
export function escapeDnValue(value: string): string {
  const written = new DN().addPairRDN('x', value).toString()
  return written.slice('x='.length)
}

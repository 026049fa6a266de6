import { DN, Filter } from 'ldapts'

/** Where a template puts the login. */
export const LOGIN_PLACEHOLDER = '{login}'

/**
 * The bind name of a login from a template: a DN (`uid={login},ou=people,dc=example,dc=org`), whose login is
 * escaped as an attribute value (RFC 4514), or an Active Directory user principal name or down-level name
 * (`{login}@corp.example`, `CORP\{login}`), which the directory reads as a name, not as a DN.
 */
export function bindNameOf(template: string, login: string): string {
  return template.replaceAll(LOGIN_PLACEHOLDER, escapeDnValue(login))
}

/** A search filter with the login in place, escaped (RFC 4515): `*)(uid=*` matches nobody, it finds no one else. */
export function searchFilterOf(template: string, login: string): string {
  return template.replaceAll(LOGIN_PLACEHOLDER, Filter.escape(login))
}

/** An attribute value escaped for a DN by ldapts' own DN writer. */
export function escapeDnValue(value: string): string {
  const written = new DN().addPairRDN('x', value).toString()
  return written.slice('x='.length)
}

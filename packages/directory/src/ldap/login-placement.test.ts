import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { bindNameOf, escapeDnValue, searchFilterOf } from './login-placement.js'

/** The characters that change the meaning of a filter or a DN when they are not escaped. */
const FILTER_SYNTAX = /[()*\\\0]/
const DN_SYNTAX = /(?<!\\)[,+=<>#;"]/

describe('placing a login in a template', () => {
  it('leaves no filter syntax of the login unescaped, whatever the login', () => {
    fc.assert(
      fc.property(fc.string(), (login) => {
        const filter = searchFilterOf('(uid={login})', login)
        const inside = filter.slice('(uid='.length, -1)
        expect(FILTER_SYNTAX.test(inside.replaceAll(/\\[0-9a-f]{2}/g, ''))).toBe(false)
      }),
    )
    expect(searchFilterOf('(uid={login})', '*)(uid=*')).toBe('(uid=\\2a\\29\\28uid=\\2a)')
    // A replacement pattern of String.replace is the login's own text, never the template's.
    expect(searchFilterOf('(uid={login})', "$`$'$&")).toBe("(uid=$`$'$&)")
  })

  it("escapes every DN special character of the login, so the bind name keeps the template's shape", () => {
    expect(bindNameOf('uid={login},ou=people', "$`$'")).toBe("uid=$`$',ou=people")
    fc.assert(
      fc.property(
        fc.string({ minLength: 1 }).filter((s) => s.trim() === s),
        (login) => {
          expect(DN_SYNTAX.test(escapeDnValue(login))).toBe(false)
        },
      ),
    )
    expect(bindNameOf('uid={login},ou=people,dc=example,dc=org', 'a,ou=admins')).toBe(
      'uid=a\\,ou\\=admins,ou=people,dc=example,dc=org',
    )
    expect(bindNameOf('{login}@corp.example', 'jdupont')).toBe('jdupont@corp.example')
  })
})

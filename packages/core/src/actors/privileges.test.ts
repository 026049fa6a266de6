import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { Actor, ActorGroup } from './actor.js'
import { CHECKED_PRIVILEGES, hasPrivilege, privilegesOf } from './privileges.js'

const group = (privileges?: string[]): ActorGroup => ({
  id: 1,
  groupId: 'G',
  canIndex: false,
  securityClause: null,
  indexingEntities: [],
  indexingKeywords: [],
  ...(privileges === undefined ? {} : { privileges }),
})
const actor = (mode: Actor['mode'], groups: ActorGroup[]) => ({ mode, groups })

describe('privileges', () => {
  it('are held through any of the groups, and only those named', () => {
    const clerk = actor('standard', [group(['add_links']), group(['create_contacts'])])
    expect(hasPrivilege(clerk, 'add_links')).toBe(true)
    expect(hasPrivilege(clerk, 'create_contacts')).toBe(true)
    expect(hasPrivilege(clerk, 'admin_users')).toBe(false)
    expect(hasPrivilege(actor('rest', [group()]), 'add_links')).toBe(false)
    expect(hasPrivilege(actor('standard', []), 'add_links')).toBe(false)
  })

  it('are all held by root users, with or without groups', () => {
    for (const mode of ['root_visible', 'root_invisible'] as const)
      for (const privilege of CHECKED_PRIVILEGES) expect(hasPrivilege(actor(mode, []), privilege)).toBe(true)
  })

  it("list each privilege of the actor's groups once, sorted", () => {
    fc.assert(
      fc.property(fc.array(fc.array(fc.constantFrom(...CHECKED_PRIVILEGES, 'view_doc_history'))), (lists) => {
        const held = privilegesOf(
          actor(
            'standard',
            lists.map((list) => group(list)),
          ),
        )
        expect(held).toEqual([...new Set(lists.flat())].sort())
        for (const privilege of CHECKED_PRIVILEGES)
          expect(
            hasPrivilege(
              actor(
                'standard',
                lists.map((list) => group(list)),
              ),
              privilege,
            ),
          ).toBe(held.includes(privilege))
      }),
    )
  })
})

import { z } from 'zod'
import { fail } from '../errors/domain-error.js'

/** Codes as the organisation document names groups and entities. */
const code = z
  .string()
  .min(1)
  .max(32)
  .regex(/^[A-Za-z0-9_.-]+$/, 'letters, digits, "_", "-" and "." only')

const attributeName = z
  .string()
  .min(1)
  .max(128)
  .regex(/^[A-Za-z][A-Za-z0-9-]*$|^[0-9]+(\.[0-9]+)+$/, 'an attribute name or OID')

/** What members of a directory group get in Mailroom. */
const GrantSchema = z.strictObject({
  groups: z.array(code).default([]),
  /** Entity codes; the first one a user gets is their primary entity unless they already have one among them. */
  entities: z.array(code).default([]),
})

/**
 * The mapping file of `mailroom user sync` (docs/directory-sign-in.md#user-sync): which directory attributes
 * hold the login and names, where group memberships are read, and what each directory group gives in
 * Mailroom. Every field is optional. Without `groups` and `everyone`, sync leaves the groups and entities of
 * existing users as they are and gives new users none.
 */
export const DirectorySyncMappingSchema = z.strictObject({
  attributes: z
    .strictObject({
      login: attributeName.default('uid'),
      firstname: attributeName.default('givenName'),
      lastname: attributeName.default('sn'),
      mail: attributeName.default('mail'),
      /** The attribute of a person's entry listing their groups' DNs (Active Directory, OpenLDAP's memberof overlay). */
      memberOf: attributeName.default('memberOf'),
    })
    .default({ login: 'uid', firstname: 'givenName', lastname: 'sn', mail: 'mail', memberOf: 'memberOf' }),
  /** Or: read memberships from the group entries themselves (groupOfNames, groupOfUniqueNames, posixGroup). */
  groupEntries: z
    .strictObject({
      base: z.string().min(1),
      filter: z.string().min(1).default('(|(objectClass=groupOfNames)(objectClass=groupOfUniqueNames))'),
      /** The attribute listing members: their DNs (`member`, `uniqueMember`) or their logins (`memberUid`). */
      memberAttribute: attributeName.default('member'),
    })
    .optional(),
  /** Directory group (its DN, or its name: the value of the DN's first part) → what its members get. */
  groups: z.array(GrantSchema.extend({ directoryGroup: z.string().min(1).max(1024) })).optional(),
  /** What every synced user gets, whatever their directory groups. */
  everyone: GrantSchema.optional(),
})

/** A user sync's mapping, as written (every field optional). */
export type DirectorySyncMappingInput = z.input<typeof DirectorySyncMappingSchema>
/** A user sync's mapping with its defaults filled in. */
export type DirectorySyncMapping = z.output<typeof DirectorySyncMappingSchema>

/** A mapping read from a file or given by a caller, defaults filled in; DIRECTORY_MAPPING_INVALID naming every problem. */
export function readDirectoryMapping(input: unknown): DirectorySyncMapping {
  const parsed = DirectorySyncMappingSchema.safeParse(input ?? {})
  if (parsed.success) return parsed.data
  return fail('DIRECTORY_MAPPING_INVALID', {
    issues: parsed.error.issues.map((issue) => ({ path: issue.path.join('.') || '(mapping)', message: issue.message })),
  })
}

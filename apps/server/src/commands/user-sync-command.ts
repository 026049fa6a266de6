import { readFile } from 'node:fs/promises'
import { type DirectoryAccount, isDomainError, readDirectoryMapping } from '@mailroom/core'
import { createLdapAccountSource } from '@mailroom/mailroom'
import type { Command } from 'commander'
import { parse as parseYaml } from 'yaml'
import { directorySyncSettings, syncMappingFile } from '../directory-settings.js'
import { operate, operatorAuthor } from './admin-session.js'
import type { CliContext } from './cli-context.js'

/** The mapping file as written (YAML or JSON), or a reason it cannot be read. */
async function readMappingFile(file: string): Promise<unknown> {
  const text = await readFile(file, 'utf8')
  return parseYaml(text, { uniqueKeys: true, maxAliasCount: 100 }) ?? {}
}

/**
 * `mailroom user sync`: reads the directory's people here (MAILROOM_LDAP_* settings), then has the writer of the
 * database (this process, or the running server over its operator channel) plan and apply the users, as
 * `org apply` does: the same plan lines, checks and history (docs/directory-sign-in.md#user-sync).
 */
export function registerUserSyncCommand(user: Command, context: CliContext): void {
  user
    .command('sync')
    .description('add, update and disable directory (ldap) users from a directory search; prints the plan')
    .option('--dry-run', 'print the plan only; change nothing')
    .option(
      '--mapping <file>',
      'attributes and directory groups → Mailroom groups and entities (default: MAILROOM_LDAP_SYNC_MAPPING)',
    )
    .action(async (o: { dryRun?: boolean; mapping?: string }) => {
      const fail = (message: string) => {
        context.err(`${message}\n`)
        context.exitCode = 1
      }
      const settings = directorySyncSettings(context.env)
      const file = o.mapping ?? syncMappingFile(context.env)
      let mappingInput: unknown = {}
      if (file) {
        try {
          mappingInput = await readMappingFile(file)
        } catch (error) {
          return fail(`cannot read the mapping ${file}: ${(error as Error).message.split('\n')[0]}`)
        }
      }
      let accounts: DirectoryAccount[]
      try {
        const mapping = readDirectoryMapping(mappingInput)
        accounts = await createLdapAccountSource({
          ...settings,
          attributes: mapping.attributes,
          ...(mapping.groupEntries === undefined ? {} : { groupEntries: mapping.groupEntries }),
        }).listAccounts()
      } catch (error) {
        if (!isDomainError(error)) throw error
        const why = (error.details as { directory?: string } | undefined)?.directory
        return fail(why === undefined ? error.message : `${error.message} (${why})`)
      }
      const result = await operate(context, 'user sync', 'syncDirectoryUsers', {
        accounts,
        mapping: mappingInput as never,
        dryRun: o.dryRun === true,
        author: operatorAuthor(context.env),
      })
      if (result === undefined) return
      context.out(`${[...result.lines, ...result.notes].join('\n')}\n`)
      if (result.lines[0] === 'no changes') return
      context.out(o.dryRun ? 'dry run: nothing was changed\n' : 'applied\n')
    })
}

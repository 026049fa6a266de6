import { createInterface } from 'node:readline'
import { USER_MODES, type UserSummary } from '@mailroom/core'
import { type Command, InvalidArgumentError, Option } from 'commander'
import { operate, operatorAuthor, readAll } from './admin-session.js'
import type { CliContext } from './cli-context.js'
import { registerUserSyncCommand } from './user-sync-command.js'

const collect = (value: string, previous: string[] = []) => [...previous, value]

/** Asks twice on a terminal without echo; reads the first line of a pipe. Never from the command line. */
async function readPassword(context: CliContext): Promise<string> {
  const input = context.stdin ?? process.stdin
  if (!input.isTTY) return (await readAll(input)).split(/\r?\n/)[0] ?? ''
  const ask = (prompt: string) =>
    new Promise<string>((resolve) => {
      const rl = createInterface({ input, output: process.stderr, terminal: true })
      // Echo nothing of what is typed.
      ;(rl as unknown as { _writeToOutput: (s: string) => void })._writeToOutput = (s: string) => {
        if (s.startsWith(prompt)) process.stderr.write(prompt)
      }
      rl.question(prompt, (answer) => {
        rl.close()
        process.stderr.write('\n')
        resolve(answer)
      })
    })
  const first = await ask('New password: ')
  const second = await ask('Again: ')
  if (first !== second) throw new InvalidArgumentError('the two passwords differ')
  return first
}

function describeUser(u: UserSummary): string {
  const name = [u.firstname, u.lastname].filter(Boolean).join(' ')
  return `${u.login}\t${u.enabled ? 'enabled' : 'disabled'}\t${u.mode}\t${u.primaryEntity ?? '-'}\t${u.groups.join(',') || '-'}\t${name}`
}

/** `mailroom user add|passwd|disable|enable|list|sync`. */
export function registerUserCommands(program: Command, context: CliContext): void {
  const user = program
    .command('user')
    .description('user accounts: add, set passwords, disable, enable, list, sync from the directory')

  user
    .command('add')
    .description('add a user (no password unless --password-stdin: set one later with `user passwd`)')
    .argument('<login>')
    .option('--firstname <name>')
    .option('--lastname <name>')
    .option('--mail <address>')
    .addOption(new Option('--mode <mode>', 'account mode').choices([...USER_MODES, 'root']).default('standard'))
    .option('--group <id>', 'a group (repeat for several)', collect)
    .option('--entity <id>', 'an entity, the first is primary (repeat for several)', collect)
    .option('--password-stdin', 'read the password from standard input (or a prompt on a terminal)')
    .action(
      async (
        login: string,
        o: {
          firstname?: string
          lastname?: string
          mail?: string
          mode: string
          group?: string[]
          entity?: string[]
          passwordStdin?: boolean
        },
      ) => {
        const password = o.passwordStdin ? await readPassword(context) : undefined
        const added = await operate(context, 'user add', 'addUser', {
          user: {
            login,
            firstname: o.firstname ?? null,
            lastname: o.lastname ?? null,
            mail: o.mail ?? null,
            mode: o.mode as (typeof USER_MODES)[number],
            groups: o.group ?? [],
            entities: (o.entity ?? []).map((id, index) => ({ id, primary: index === 0 })),
            ...(password === undefined ? {} : { password }),
          },
          author: operatorAuthor(context.env),
        })
        if (added)
          context.out(
            `user ${added.login} added (id ${added.id})${password === undefined ? '; no password yet: run `mailroom user passwd`' : ''}\n`,
          )
      },
    )

  user
    .command('passwd')
    .description('set a password, read from standard input or a prompt (never from the command line)')
    .argument('<login>')
    .action(async (login: string) => {
      const password = await readPassword(context)
      const author = operatorAuthor(context.env)
      if ((await operate(context, 'user passwd', 'setPassword', { login, password, author })) === null)
        context.out(`password of ${login} changed\n`)
    })

  for (const [name, enabled] of [
    ['disable', false],
    ['enable', true],
  ] as const) {
    user
      .command(name)
      .description(
        enabled
          ? 'let a user authenticate again'
          : 'refuse a user every authentication; their tokens stop working at once',
      )
      .argument('<login>')
      .action(async (login: string) => {
        const author = operatorAuthor(context.env)
        const changed = await operate(context, `user ${name}`, 'setEnabled', { login, enabled, author })
        if (changed) context.out(`user ${changed.login} ${enabled ? 'enabled' : 'disabled'}\n`)
      })
  }

  user
    .command('list')
    .description('every user: login, state, mode, primary entity, groups, name')
    .option('--json', 'one JSON object per line')
    .action(async (o: { json?: boolean }) => {
      for (const u of (await operate(context, 'user list', 'listUsers', {})) ?? [])
        context.out(o.json ? `${JSON.stringify(u)}\n` : `${describeUser(u)}\n`)
    })

  registerUserSyncCommand(user, context)
}

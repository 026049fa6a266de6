import { type DatabaseHolder, describeHolder } from './database-lock.js'

/** A command or server refused because another process holds the embedded database; the CLI prints it and exits 1. */
export class DatabaseHeldError extends Error {
  override readonly name = 'DatabaseHeldError'
  constructor(
    message: string,
    readonly holder: DatabaseHolder,
  ) {
    super(message)
  }
}

/**
 * Why `command` cannot run beside `holder`, and what to do: stop the server or use it, or wait for the other
 * command. Every refusal says it the same way.
 */
export function databaseHeldError(command: string, holder: DatabaseHolder, dataDir: string): DatabaseHeldError {
  const held = `${describeHolder(holder)} holds the embedded database in ${dataDir}`
  const isServer = holder.command === 'serve'
  let advice: string
  if (command === 'serve')
    advice = isServer
      ? 'a second server on it would lose changes: use the running server, or stop it first'
      : 'start the server once that command has finished'
  else
    advice = isServer
      ? `\`mailroom ${command}\` cannot run beside it: stop the server (nothing is lost), run the command, then start the server again`
      : `run \`mailroom ${command}\` again once that command has finished`
  return new DatabaseHeldError(`${held}: ${advice}`, holder)
}

// A process that asks for a data directory's lock at an agreed moment, prints whether it got it, and keeps
// it until its standard input closes, so that the others find a live holder: argv = dataDir, the moment
// (ms since the epoch).
import { claimDatabaseLock } from '../src/embedded/database-lock.js'

const [dataDir, at] = process.argv.slice(2)
await new Promise((resolve) => setTimeout(resolve, Math.max(0, Number(at) - Date.now())))
const claim = await claimDatabaseLock(dataDir!, 'test')
process.stdout.write(claim.taken ? 'taken\n' : `held by ${claim.holder.pid}\n`)
process.stdin.resume()
await new Promise((resolve) => process.stdin.once('end', resolve))

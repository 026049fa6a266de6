import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

/**
 * Maarch 20.10's own web client, built from its sources (GPL-3.0, test material kept outside the repository):
 * `MAILROOM_MAARCH_WEB_CLIENT`, else `../shared/reference/maarch-20.10-web-client` beside the repository. Tests
 * serve its `dist/` and `lang/` folders as an operator would; nothing of it is copied into the project.
 */
export function webClientMaterialLocation(): string {
  return (
    process.env.MAILROOM_MAARCH_WEB_CLIENT ||
    fileURLToPath(new URL('../../../../../shared/reference/maarch-20.10-web-client', import.meta.url))
  )
}

/** The client's folders, or null where this machine has none (its tests are then skipped, saying so). */
export function webClientMaterial(): { readonly dist: string; readonly lang: string; readonly root: string } | null {
  const root = webClientMaterialLocation()
  if (!existsSync(join(root, 'dist', 'index.html')) || !existsSync(join(root, 'lang', 'lang-fr.json'))) {
    const missing = `Maarch 20.10's web client is not at ${root} (set MAILROOM_MAARCH_WEB_CLIENT, or put it at ../shared/reference/maarch-20.10-web-client beside the repository)`
    if (process.env.CI === 'true' || process.env.CI === '1') throw new Error(`CI must run every test: ${missing}`)
    console.warn(`the tests with Maarch's web client are skipped: ${missing}`)
    return null
  }
  return { root, dist: join(root, 'dist'), lang: join(root, 'lang') }
}

import { readFile } from 'node:fs/promises'
import { extname } from 'node:path'
import { fail, type LanguageResponse, WEB_CLIENT_LANGUAGES, type WebClientImage } from '@mailroom/core'
import { DEFAULT_IMAGES } from './default-images.js'
import { fileInside } from './file-inside.js'

/** The folders an operator supplies for Maarch 20.10's web client (docs/web-client.md); each absent: not used. */
export interface WebClientFolders {
  /** The client's build (`index.html`, its scripts and assets), served under {@link WEB_CLIENT_PATH}. */
  readonly clientDir?: string
  /** Its language files, `lang-fr.json`, `lang-en.json`, `lang-nl.json` (20.10's `src/lang`). */
  readonly languagesDir?: string
  /** The sign-in page's images, `logo`, `bodylogin` and `logo_only` (.svg, .png, .jpg or .webp; 20.10's custom `img`). */
  readonly imagesDir?: string
}

/** The file names 20.10 gives the images (`custom/{id}/img/…`), so an installation's folder serves as it is. */
const IMAGE_FILES: Readonly<Record<WebClientImage, string>> = {
  logo: 'logo',
  loginPage: 'bodylogin',
  onlyLogo: 'logo_only',
}

const IMAGE_TYPES: Readonly<Record<string, string>> = {
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
}

/** An image to answer with. */
export interface ImageFile {
  readonly contentType: string
  readonly extension: string
  readonly bytes: Buffer | string
}

/** The labels of a language: its file's object, or `[]` as 20.10 answers when there is none (or it is not JSON). */
export async function readLanguage(folders: WebClientFolders, code: string): Promise<LanguageResponse> {
  if (!(WEB_CLIENT_LANGUAGES as readonly string[]).includes(code)) fail('LANGUAGE_UNKNOWN')
  const file = folders.languagesDir ? await fileInside(folders.languagesDir, `lang-${code}.json`) : null
  if (!file) return { lang: [] }
  try {
    const labels: unknown = JSON.parse(await readFile(file, 'utf8'))
    return typeof labels === 'object' && labels !== null && !Array.isArray(labels)
      ? { lang: labels as Record<string, unknown> }
      : { lang: [] }
  } catch {
    return { lang: [] }
  }
}

/** An image from the operator's folder when it has one, else Mailroom's own. */
export async function readImage(folders: WebClientFolders, image: WebClientImage): Promise<ImageFile> {
  if (folders.imagesDir) {
    for (const extension of Object.keys(IMAGE_TYPES)) {
      const file = await fileInside(folders.imagesDir, `${IMAGE_FILES[image]}${extension}`)
      if (file)
        return {
          contentType: IMAGE_TYPES[extname(file)] ?? IMAGE_TYPES[extension]!,
          extension,
          bytes: await readFile(file),
        }
    }
  }
  return { contentType: 'image/svg+xml', extension: '.svg', bytes: DEFAULT_IMAGES[image] }
}

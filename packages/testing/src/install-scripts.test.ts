import { spawnSync } from 'node:child_process'
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { delimiter, join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'

const scripts = join(import.meta.dirname, '..', '..', '..', 'scripts')

/**
 * A machine whose Debian packages are the lines of a file: stand-ins for dpkg-query (reads it), apt-get
 * (records its arguments and adds what `install` names) and id (root), first on PATH.
 */
let machine: string
const installed = () => join(machine, 'installed')
const aptCalls = () => join(machine, 'apt-calls')
beforeEach(() => {
  machine = mkdtempSync(join(tmpdir(), 'mailroom-install-'))
  const stub = (name: string, body: string) => {
    writeFileSync(join(machine, name), `#!/usr/bin/env bash\n${body}\n`)
    chmodSync(join(machine, name), 0o755)
  }
  writeFileSync(installed(), '')
  writeFileSync(aptCalls(), '')
  stub('dpkg-query', `grep -qx "\${@: -1}" "${installed()}" && printf 'install ok installed'`)
  stub(
    'apt-get',
    `echo "$*" >> "${aptCalls()}"\ncase " $* " in *" install "*) for a in "$@"; do case $a in -*|install|*=*) ;; *) echo "$a" >> "${installed()}";; esac; done;; esac\nexit 0`,
  )
  stub('id', 'echo 0')
})
afterEach(() => rmSync(machine, { recursive: true, force: true }))

function runScript(script: string, packages: string[], ...args: (string | Record<string, string>)[]) {
  writeFileSync(installed(), packages.map((p) => `${p}\n`).join(''))
  const env = Object.assign({}, ...args.filter((arg) => typeof arg !== 'string'))
  const result = spawnSync('bash', [join(scripts, script), ...args.filter((arg) => typeof arg === 'string')], {
    encoding: 'utf8',
    env: { PATH: [machine, process.env.PATH].join(delimiter), MAILROOM_CHROMIUM: '', ...env },
  })
  return { status: result.status, lines: result.stdout.trim().split('\n'), apt: readFileSync(aptCalls(), 'utf8') }
}

const FULL_OFFICE = [
  'libreoffice-writer-nogui',
  'libreoffice-calc-nogui',
  'libreoffice-impress-nogui',
  'unoconv',
  'fonts-dejavu-core',
  'fonts-liberation2',
  'poppler-utils',
]

describe('scripts/install-libreoffice.sh', () => {
  it('checks each piece on its own: Writer alone is not LibreOffice enough', () => {
    const { status, lines, apt } = runScript(
      'install-libreoffice.sh',
      ['libreoffice-writer', 'fonts-dejavu-core'],
      '--check',
    )
    expect(status).toBe(1)
    expect(lines).toEqual([
      'install-libreoffice: ok      LibreOffice Writer (docx, odt, doc, html): libreoffice-writer',
      'install-libreoffice: missing LibreOffice Calc (xlsx, ods, xls): libreoffice-calc-nogui',
      'install-libreoffice: missing LibreOffice Impress (pptx, odp): libreoffice-impress-nogui',
      'install-libreoffice: missing unoconv (warm LibreOffice listener): unoconv',
      'install-libreoffice: ok      DejaVu fonts (Latin, Greek, Cyrillic): fonts-dejavu-core',
      'install-libreoffice: missing Liberation fonts (for Arial, Times New Roman): fonts-liberation2',
      'install-libreoffice: missing poppler (pdftotext, pdftoppm): poppler-utils',
      'install-libreoffice: would install libreoffice-calc-nogui libreoffice-impress-nogui unoconv fonts-liberation2 poppler-utils',
    ])
    expect(apt).toBe('')
  })

  it('completes a partial install with the missing packages only', () => {
    const { status, lines, apt } = runScript('install-libreoffice.sh', [
      'libreoffice-writer-nogui',
      'fonts-dejavu-core',
    ])
    expect(status).toBe(0)
    expect(lines).toContain(
      'install-libreoffice: installing libreoffice-calc-nogui libreoffice-impress-nogui unoconv fonts-liberation2 poppler-utils',
    )
    expect(apt.trim().split('\n')).toEqual([
      '-o DPkg::Lock::Timeout=600 update -qq',
      '-o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends libreoffice-calc-nogui libreoffice-impress-nogui unoconv fonts-liberation2 poppler-utils',
    ])
    expect(
      runScript('install-libreoffice.sh', readFileSync(installed(), 'utf8').trim().split('\n'), '--check').status,
    ).toBe(0)
  })

  it('does nothing when every piece is there', () => {
    const { status, lines, apt } = runScript('install-libreoffice.sh', FULL_OFFICE)
    expect(status).toBe(0)
    expect(lines.filter((line) => line.includes(': ok '))).toHaveLength(7)
    expect(apt).toBe('')
  })
})

describe('scripts/install-chromium.sh', () => {
  it('installs the browser when only the fonts are there, and nothing when both are', () => {
    expect(runScript('install-chromium.sh', ['fonts-dejavu-core'], '--check')).toMatchObject({
      status: 1,
      lines: [
        'install-chromium: missing Chromium (browser tests): chromium',
        'install-chromium: ok      DejaVu fonts (page text in screenshots): fonts-dejavu-core',
        'install-chromium: would install chromium',
      ],
    })
    expect(runScript('install-chromium.sh', ['fonts-dejavu-core']).apt).toContain(
      '-o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends chromium',
    )
    expect(runScript('install-chromium.sh', ['chromium', 'fonts-dejavu-core'], '--check')).toMatchObject({ status: 0 })
  })
})

describe('scripts/install-capture-python.sh', () => {
  const CAPTURE_PIECES = ['python3', 'python3-venv', 'python3-requests']
  /**
   * Stand-ins for Debian's python3 (`-m venv` makes a virtual environment of stubs) and for that environment's pip
   * (records its arguments, then the environment's python has holidays.FR, release 0.105).
   */
  const captureEnv = () => {
    const venv = join(machine, 'venv')
    const basePython = join(machine, 'base-python3')
    writeFileSync(
      basePython,
      `#!/usr/bin/env bash
echo "$*" >> "${machine}/python-calls"
dir="\${@: -1}"; mkdir -p "$dir/bin"
printf '#!/usr/bin/env bash\\n[ -e "%s/holidays" ] && echo 0.105\\n' "$dir" > "$dir/bin/python"
printf '#!/usr/bin/env bash\\necho "$*" >> "%s/pip-calls"\\ntouch "%s/holidays"\\n' "${machine}" "$dir" > "$dir/bin/pip"
chmod +x "$dir/bin/python" "$dir/bin/pip"
`,
    )
    chmodSync(basePython, 0o755)
    return { MAILROOM_CAPTURE_VENV: venv, MAILROOM_CAPTURE_BASE_PYTHON: basePython }
  }
  const calls = (file: string) => {
    try {
      return readFileSync(join(machine, file), 'utf8').trim().split('\n')
    } catch {
      return []
    }
  }

  it('checks requests and holidays.FR on their own: Python with its venv module is not enough', () => {
    const env = captureEnv()
    const { status, lines, apt } = runScript('install-capture-python.sh', ['python3', 'python3-venv'], env, '--check')
    expect(status).toBe(1)
    const venv = env.MAILROOM_CAPTURE_VENV
    expect(lines).toEqual([
      'install-capture-python: ok      Python 3 (runs the capture client): python3',
      'install-capture-python: ok      Python virtual environments: python3-venv',
      "install-capture-python: missing requests (the client's HTTP library): python3-requests",
      'install-capture-python: would install python3-requests',
      `install-capture-python: missing holidays with holidays.FR: holidays==0.105 in ${venv}`,
      `install-capture-python: would install holidays==0.105 in ${venv}`,
    ])
    expect(apt).toBe('')
    expect(calls('python-calls')).toEqual([])
  })

  it('installs requests with apt-get and holidays with pip in a virtual environment that sees Debian’s packages', () => {
    const env = captureEnv()
    const { status, lines, apt } = runScript('install-capture-python.sh', ['python3', 'python3-venv'], env)
    expect(status).toBe(0)
    expect(apt).toContain('-o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends python3-requests')
    expect(calls('python-calls')).toEqual([`-m venv --system-site-packages ${env.MAILROOM_CAPTURE_VENV}`])
    expect(calls('pip-calls')).toEqual(['install --quiet --retries 1 --disable-pip-version-check holidays==0.105'])
    expect(lines.at(-1)).toBe(`install-capture-python: installing holidays==0.105 in ${env.MAILROOM_CAPTURE_VENV}`)
    // Everything there now: nothing more to do.
    const again = runScript('install-capture-python.sh', [...CAPTURE_PIECES], env, '--check')
    expect(again.status).toBe(0)
    expect(again.lines.at(-1)).toBe(
      `install-capture-python: ok      holidays with holidays.FR: 0.105 in ${env.MAILROOM_CAPTURE_VENV}`,
    )
    runScript('install-capture-python.sh', [...CAPTURE_PIECES], env)
    expect(calls('pip-calls')).toHaveLength(1)
  })
})

describe('scripts/install-slapd.sh', () => {
  it('installs the missing pieces of the directory tests, and nothing when all are there', () => {
    expect(runScript('install-slapd.sh', ['openssl'], '--check')).toMatchObject({
      status: 1,
      lines: [
        'install-slapd: missing OpenLDAP server (directory tests): slapd',
        'install-slapd: missing OpenLDAP tools (ldapadd, slappasswd): ldap-utils',
        "install-slapd: ok      OpenSSL (the tests' TLS certificate): openssl",
        'install-slapd: would install slapd ldap-utils',
      ],
    })
    expect(runScript('install-slapd.sh', ['openssl']).apt).toContain(
      '-o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends slapd ldap-utils',
    )
    expect(runScript('install-slapd.sh', ['slapd', 'ldap-utils', 'openssl'], '--check')).toMatchObject({ status: 0 })
  })
})

describe('scripts/install-tesseract.sh', () => {
  it('installs the missing pieces of full-text extraction, and nothing when all are there', () => {
    expect(runScript('install-tesseract.sh', ['tesseract-ocr', 'poppler-utils'], '--check')).toMatchObject({
      status: 1,
      lines: [
        'install-tesseract: ok      Tesseract OCR (scans and images): tesseract-ocr',
        'install-tesseract: missing Tesseract French data: tesseract-ocr-fra',
        'install-tesseract: missing Tesseract English data: tesseract-ocr-eng',
        'install-tesseract: ok      poppler (pdftotext, pdftoppm): poppler-utils',
        'install-tesseract: would install tesseract-ocr-fra tesseract-ocr-eng',
      ],
    })
    expect(runScript('install-tesseract.sh', ['poppler-utils']).apt).toContain(
      '-o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends tesseract-ocr tesseract-ocr-fra tesseract-ocr-eng',
    )
    const all = ['tesseract-ocr', 'tesseract-ocr-fra', 'tesseract-ocr-eng', 'poppler-utils']
    expect(runScript('install-tesseract.sh', all, '--check')).toMatchObject({ status: 0 })
  })
})

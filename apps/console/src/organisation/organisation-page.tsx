import type { MailroomClient } from '@mailroom/sdk'
import { useEffect, useState } from 'preact/hooks'
import { Alert } from '../ui/alert.js'
import { useConsole } from '../ui/context.js'
import { saveBytes } from '../ui/download.js'
import { errorText } from '../ui/error-text.js'
import { PageHeading } from '../ui/page-heading.js'
import { TableScroll } from '../ui/table-scroll.js'

type Organisation = Awaited<ReturnType<MailroomClient['admin']['exportOrganisation']>>
type Entity = NonNullable<Organisation['entities']>[number]

/** Entities as a nested list under their parents (top-level entities own the digital safes). */
function EntityTree(props: { readonly entities: readonly Entity[]; readonly parent: string | null }) {
  const children = props.entities.filter((e) => e.parent === props.parent)
  if (children.length === 0) return null
  return (
    <ul class="tree">
      {children.map((entity) => (
        <li key={entity.id}>
          <strong>{entity.id}</strong> {entity.label}
          {entity.businessId ? <span class="muted"> · {entity.businessId}</span> : null}
          <EntityTree entities={props.entities} parent={entity.id} />
        </li>
      ))}
    </ul>
  )
}

/** The organisation document of a root user, read-only: entities tree, groups, users, and its export. */
export function OrganisationPage() {
  const { t, keeper } = useConsole()
  const [organisation, setOrganisation] = useState<Organisation | null>(null)
  const [error, setError] = useState<string | null>(null)

  useEffect(() => {
    keeper
      .call((client) => client.admin.exportOrganisation())
      .then(setOrganisation)
      .catch((caught: unknown) => setError(errorText(caught, t)))
  }, [keeper, t])

  return (
    <>
      <PageHeading text={t('organisationTitle')} />
      <Alert kind="error" text={error} />
      {organisation ? (
        <>
          <p class="help">{t('readOnly')}</p>
          <p>
            <button
              type="button"
              onClick={() =>
                saveBytes(`${JSON.stringify(organisation, null, 2)}\n`, 'organisation.json', 'application/json')
              }
            >
              {t('export')}
            </button>
          </p>
          <div class="columns">
            <section aria-labelledby="entities-title" class="card">
              <h2 id="entities-title">{t('entities')}</h2>
              <EntityTree entities={organisation.entities ?? []} parent={null} />
            </section>
            <section aria-labelledby="groups-title" class="card">
              <h2 id="groups-title">{t('groups')}</h2>
              <ul>
                {(organisation.groups ?? []).map((group) => (
                  <li key={group.id}>
                    <strong>{group.id}</strong> {group.label}
                    {group.canIndex ? <span class="muted"> · {t('canIndex')}</span> : null}
                    {group.digitalSafe ? <span class="muted"> · {t('navJournal')}</span> : null}
                    <br />
                    <code>{group.perimeter ?? ''}</code>
                  </li>
                ))}
              </ul>
            </section>
            <section aria-labelledby="users-title" class="card">
              <h2 id="users-title">{t('users')}</h2>
              <TableScroll label={t('users')}>
                <table>
                  <thead>
                    <tr>
                      <th scope="col">{t('login')}</th>
                      <th scope="col">{t('who')}</th>
                      <th scope="col">{t('groups')}</th>
                      <th scope="col">{t('entities')}</th>
                    </tr>
                  </thead>
                  <tbody>
                    {(organisation.users ?? []).map((user) => (
                      <tr key={user.login}>
                        <td>{user.login}</td>
                        <td>{[user.firstname, user.lastname].filter(Boolean).join(' ')}</td>
                        <td>{user.groups.join(', ')}</td>
                        <td>{user.entities.map((e) => (e.primary ? `${e.id}*` : e.id)).join(', ')}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </TableScroll>
            </section>
          </div>
        </>
      ) : error ? null : (
        <p>{t('loading')}</p>
      )}
    </>
  )
}

import { useLoaded } from '../capture/use-loaded.js'
import { Alert } from '../ui/alert.js'
import { useConsole } from '../ui/context.js'
import { PageHeading } from '../ui/page-heading.js'
import { basketHash } from './basket-address.js'

/** A basket's colour as a swatch: an SVG fill, not a style attribute (the console's policy forbids inline styles). */
function Swatch(props: { readonly color: string }) {
  const color = /^#[0-9a-fA-F]{3,8}$/.test(props.color) ? props.color : '#666666'
  return (
    <svg class="swatch" width="14" height="14" viewBox="0 0 14 14" aria-hidden="true">
      <rect width="14" height="14" rx="3" fill={color} />
    </svg>
  )
}

/**
 * A clerk's home (GET /rest/home): her groups, each with its baskets, their colours and how many letters each
 * holds; then the baskets colleagues lent her. A basket opens its list.
 */
export function BasketsHomePage() {
  const { t } = useConsole()
  const home = useLoaded((client) => client.getHome())
  const value = home.value
  const empty = value
    ? value.regroupedBaskets.every((g) => g.baskets.length === 0) && value.assignedBaskets.length === 0
    : false
  return (
    <>
      <PageHeading text={t('basketsTitle')} />
      <Alert kind="error" text={home.error} />
      {value === null ? (
        home.error ? null : (
          <p>{t('loading')}</p>
        )
      ) : empty ? (
        <p>{t('noBaskets')}</p>
      ) : (
        <div class="columns">
          {value.regroupedBaskets
            .filter((group) => group.baskets.length > 0)
            .map((group) => (
              <section key={group.groupSerialId} class="card" aria-labelledby={`group-${group.groupSerialId}`}>
                <h2 id={`group-${group.groupSerialId}`}>{group.groupDesc ?? group.groupId}</h2>
                <ul class="baskets">
                  {group.baskets.map((basket) => (
                    <li key={basket.id}>
                      <Swatch color={basket.color} />
                      <a
                        href={basketHash({
                          userId: basket.owner_user_id,
                          groupId: group.groupSerialId,
                          basketId: basket.id,
                        })}
                      >
                        {basket.basket_name}
                      </a>
                      <span class="basket-count">{t('basketCount', { count: basket.resourceNumber })}</span>
                      {basket.redirected && basket.redirectedUser ? (
                        <span class="muted">{t('basketLentTo', { user: basket.redirectedUser })}</span>
                      ) : null}
                    </li>
                  ))}
                </ul>
              </section>
            ))}
          {value.assignedBaskets.length > 0 ? (
            <section class="card" aria-labelledby="lent-baskets">
              <h2 id="lent-baskets">{t('lentBaskets')}</h2>
              <ul class="baskets">
                {value.assignedBaskets.map((basket) => (
                  <li key={`${basket.owner_user_id}-${basket.group_id}-${basket.id}`}>
                    <a
                      href={basketHash({ userId: basket.owner_user_id, groupId: basket.group_id, basketId: basket.id })}
                    >
                      {t('lentBy', { basket: basket.basket_name, user: basket.userToDisplay })}
                    </a>
                    <span class="basket-count">{t('basketCount', { count: basket.resourceNumber })}</span>
                  </li>
                ))}
              </ul>
            </section>
          ) : null}
        </div>
      )}
    </>
  )
}

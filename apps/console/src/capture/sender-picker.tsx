import { useEffect, useState } from 'preact/hooks'
import { useConsole } from '../ui/context.js'
import { errorText } from '../ui/error-text.js'
import { type ContactRow, findContactByMail, readContact, searchContacts } from './capture-api.js'
import { contactLabel, contactQuery } from './reference-options.js'

/** How long typing must pause before the sender look-up asks the server. */
const TYPING_PAUSE_MS = 250

/**
 * The sender of a record, looked up as it is typed: a contact's number (GET /rest/contacts/{id}), an e-mail
 * address (GET /rest/getContactByMail), or, for those who may list contacts (admin_contacts), words of its
 * name or address (GET /rest/contacts?search=). The matches are buttons; the chosen one is shown with a
 * button to remove it.
 */
export function SenderPicker(props: {
  readonly id: string
  readonly label: string
  readonly chosen: ContactRow | null
  readonly onChoose: (contact: ContactRow | null) => void
}) {
  const { t, keeper, abilities } = useConsole()
  const [typed, setTyped] = useState('')
  const [matches, setMatches] = useState<readonly ContactRow[] | null>(null)
  const [message, setMessage] = useState<string | null>(null)

  useEffect(() => {
    const query = contactQuery(typed)
    setMatches(null)
    setMessage(null)
    if (query.kind === 'none') return
    if (query.kind === 'words' && !abilities.canSearchContacts) {
      setMessage(t('senderByNumberOrMail'))
      return
    }
    let current = true
    const timer = setTimeout(() => {
      keeper
        .call(async (client) => {
          if (query.kind === 'id') return [await readContact(client, query.id)]
          if (query.kind === 'mail') {
            const found = await findContactByMail(client, query.mail)
            return found ? [found] : []
          }
          return searchContacts(client, query.words)
        })
        .then((found) => {
          if (!current) return
          setMatches(found)
          setMessage(found.length === 0 ? t('noContact') : null)
        })
        .catch((caught: unknown) => current && setMessage(errorText(caught, t)))
    }, TYPING_PAUSE_MS)
    return () => {
      current = false
      clearTimeout(timer)
    }
  }, [typed, keeper, t, abilities.canSearchContacts])

  if (props.chosen)
    return (
      <div class="field sender">
        <span class="label">{props.label}</span>
        <p class="chosen-contact">
          <span>{contactLabel(props.chosen)}</span>{' '}
          <button type="button" class="link" onClick={() => props.onChoose(null)}>
            {t('removeSender')}
          </button>
        </p>
      </div>
    )

  return (
    <div class="field sender">
      <label for={props.id}>{props.label}</label>
      <input
        id={props.id}
        type="search"
        autocomplete="off"
        aria-describedby={`${props.id}-help`}
        value={typed}
        onInput={(e) => setTyped(e.currentTarget.value)}
      />
      <p id={`${props.id}-help`} class="help">
        {abilities.canSearchContacts ? t('senderHelpSearch') : t('senderHelp')}
      </p>
      {message ? (
        <p class="help" role="status">
          {message}
        </p>
      ) : null}
      {matches && matches.length > 0 ? (
        <ul class="matches" aria-label={t('senderMatches')}>
          {matches.map((contact) => (
            <li key={contact.id}>
              <button
                type="button"
                class="link"
                onClick={() => {
                  props.onChoose(contact)
                  setTyped('')
                }}
              >
                {contactLabel(contact)}
              </button>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  )
}

/** A message read out as soon as it appears: errors as alerts, confirmations as status. */
export function Alert(props: { readonly kind: 'error' | 'ok'; readonly text: string | null; readonly id?: string }) {
  if (!props.text) return null
  return (
    <p id={props.id} class={`alert alert-${props.kind}`} role={props.kind === 'error' ? 'alert' : 'status'}>
      {props.text}
    </p>
  )
}

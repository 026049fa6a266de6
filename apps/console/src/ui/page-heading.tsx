import { useEffect, useRef } from 'preact/hooks'

/** The page's h1: it names the document and takes the focus when the page opens (screen readers, keyboard). */
export function PageHeading(props: { readonly text: string }) {
  const ref = useRef<HTMLHeadingElement>(null)
  useEffect(() => {
    document.title = `${props.text} · Mailroom`
    ref.current?.focus()
  }, [props.text])
  return (
    <h1 ref={ref} tabIndex={-1}>
      {props.text}
    </h1>
  )
}

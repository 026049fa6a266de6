import type { ComponentChildren } from 'preact'

/** A wide table that scrolls sideways on narrow screens: a named region the keyboard can focus and scroll. */
export function TableScroll(props: { readonly label: string; readonly children: ComponentChildren }) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard (WCAG 2.1.1)
    <section class="table-scroll" tabIndex={0} aria-label={props.label}>
      {props.children}
    </section>
  )
}

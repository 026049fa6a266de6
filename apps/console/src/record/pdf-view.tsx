import { useEffect, useRef, useState } from 'preact/hooks'
import { useConsole } from '../ui/context.js'

type PdfJs = typeof import('pdfjs-dist')
type PdfDocument = Awaited<ReturnType<PdfJs['getDocument']>['promise']>

let pdfjs: Promise<PdfJs> | undefined

/** pdf.js, loaded on the first PDF shown (its own chunk) with its worker from the console's assets. */
function loadPdfJs(): Promise<PdfJs> {
  pdfjs ??= Promise.all([import('pdfjs-dist'), import('pdfjs-dist/build/pdf.worker.min.mjs?url')]).then(
    ([lib, worker]) => {
      lib.GlobalWorkerOptions.workerSrc = worker.default
      return lib
    },
  )
  return pdfjs
}

/** Draws one page at a time of a PDF held in a Blob onto a canvas, with previous / next page. */
export function PdfView(props: { readonly pdf: Blob; readonly resId: number }) {
  const { t } = useConsole()
  const canvas = useRef<HTMLCanvasElement>(null)
  const [document, setDocument] = useState<PdfDocument | null>(null)
  const [page, setPage] = useState(1)
  const [error, setError] = useState<string | null>(null)
  const [drawn, setDrawn] = useState(0)

  useEffect(() => {
    let cancelled = false
    let loaded: PdfDocument | null = null
    void (async () => {
      try {
        const lib = await loadPdfJs()
        const data = new Uint8Array(await props.pdf.arrayBuffer())
        loaded = await lib.getDocument({ data, isEvalSupported: false }).promise
        if (cancelled) await loaded.destroy()
        else setDocument(loaded)
      } catch (caught) {
        if (!cancelled) setError(caught instanceof Error ? caught.message : String(caught))
      }
    })()
    return () => {
      cancelled = true
      void loaded?.destroy()
    }
  }, [props.pdf])

  useEffect(() => {
    if (!document || !canvas.current) return
    let task: { cancel(): void; promise: Promise<void> } | undefined
    void (async () => {
      const pdfPage = await document.getPage(page)
      const target = canvas.current
      if (!target) return
      const width = Math.min(target.parentElement?.clientWidth ?? 800, 900)
      const base = pdfPage.getViewport({ scale: 1 })
      const ratio = window.devicePixelRatio || 1
      const viewport = pdfPage.getViewport({ scale: (width / base.width) * ratio })
      target.width = Math.floor(viewport.width)
      target.height = Math.floor(viewport.height)
      target.style.width = `${Math.floor(viewport.width / ratio)}px`
      target.style.height = `${Math.floor(viewport.height / ratio)}px`
      task = pdfPage.render({ canvas: target, viewport })
      await task.promise
      setDrawn((n) => n + 1)
    })().catch(() => {})
    return () => task?.cancel()
  }, [document, page])

  if (error) return <p role="alert">{error}</p>
  const pages = document?.numPages ?? 1
  return (
    <div class="pdf">
      <canvas ref={canvas} role="img" aria-label={t('pdfAlt', { resId: props.resId, page })} data-drawn={drawn} />
      {pages > 1 ? (
        <div class="pager">
          <button type="button" class="secondary" disabled={page <= 1} onClick={() => setPage(page - 1)}>
            {t('previous')}
          </button>
          <span>{t('pdfPage', { page, pages })}</span>
          <button type="button" class="secondary" disabled={page >= pages} onClick={() => setPage(page + 1)}>
            {t('next')}
          </button>
        </div>
      ) : null}
    </div>
  )
}

// The parser ships no types: the shape of its output (prom2json's), as the metrics tests read it.
declare module 'parse-prometheus-text-format' {
  interface Sample {
    readonly labels?: Record<string, string>
    readonly value?: string
    readonly buckets?: Record<string, string>
    readonly count?: string
    readonly sum?: string
  }
  interface MetricFamily {
    readonly name: string
    readonly help: string
    readonly type: 'COUNTER' | 'GAUGE' | 'HISTOGRAM' | 'SUMMARY' | 'UNTYPED'
    readonly metrics: readonly Sample[]
  }
  export default function parsePrometheusTextFormat(text: string): MetricFamily[]
}

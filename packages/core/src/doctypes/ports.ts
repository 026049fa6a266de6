/** A first level of the document-type tree, as stored. */
export interface DoctypeFirstLevelRow {
  readonly doctypes_first_level_id: number
  readonly doctypes_first_level_label: string
  readonly css_style: string | null
  readonly enabled: string
}

/** A second level, as stored. */
export interface DoctypeSecondLevelRow {
  readonly doctypes_second_level_id: number
  readonly doctypes_second_level_label: string
  readonly doctypes_first_level_id: number
  readonly css_style: string | null
  readonly enabled: string
}

/** A document type, as stored. */
export interface DoctypeRow {
  readonly type_id: number
  readonly description: string
  readonly enabled: string
  readonly doctypes_first_level_id: number
  readonly doctypes_second_level_id: number
  readonly process_delay: number
  readonly process_mode: string
}

/** The document-type tree, read side (tens of rows). */
export interface DoctypeRepository {
  /** Enabled first levels, second levels and types, each ordered by label as 20.10 orders them. */
  enabledTree(): Promise<{
    firstLevels: DoctypeFirstLevelRow[]
    secondLevels: DoctypeSecondLevelRow[]
    doctypes: DoctypeRow[]
  }>
  /** One document type (enabled or not), or null. */
  findDoctype(typeId: number): Promise<DoctypeRow | null>
}

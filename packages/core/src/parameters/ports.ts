import type { Parameter } from '../api/parameter-schemas.js'

/** Parameters (20.10's `parameters` table), read side. A few dozen rows: whole-table reads are fine. */
export interface ParameterRepository {
  /** Every parameter, by id. */
  list(): Promise<Parameter[]>
  /** One parameter, or null. */
  find(id: string): Promise<Parameter | null>
}

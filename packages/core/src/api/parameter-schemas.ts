import { z } from 'zod'

const parameterFields = {
  id: z.string(),
  description: z.string().nullable(),
  param_value_string: z.string().nullable(),
  param_value_int: z.number().int().nullable(),
  param_value_date: z.string().nullable().describe('YYYY-MM-DD HH:MM:SS, as 20.10 prints a timestamp'),
}

/** A parameter as `GET /rest/parameters/{id}` answers it (20.10's `parameters` row). */
export const ParameterSchema = z.object(parameterFields).meta({ id: 'Parameter' })
/** A parameter of `GET /rest/parameters/{id}`. */
export type Parameter = z.infer<typeof ParameterSchema>

/** Path of `GET /rest/parameters/{id}`. */
export const ParameterPathSchema = z
  .object({ id: z.string().describe('The parameter id (workingDays, …)') })
  .meta({ description: 'The parameter addressed' })

/** Body of `GET /rest/parameters/{id}`. */
export const ParameterResponseSchema = z.object({ parameter: ParameterSchema }).meta({ id: 'ParameterRead' })
/** Body of `GET /rest/parameters/{id}`. */
export type ParameterResponse = z.infer<typeof ParameterResponseSchema>

/** Body of `GET /rest/parameters`. */
export const ParameterListResponseSchema = z
  .object({
    parameters: z.array(
      z.object({
        ...parameterFields,
        value: z
          .union([z.string(), z.number().int()])
          .optional()
          .describe('The value set: the string if not empty, else the integer, else the date; absent when none'),
      }),
    ),
  })
  .meta({
    id: 'ParameterList',
    description:
      'Every parameter with admin_parameters; without it only traffic_record_summary_sheet. loginpage_message and ' +
      'homepage_message are always listed (empty when not stored), as 20.10 does',
  })
/** Body of `GET /rest/parameters`. */
export type ParameterListResponse = z.infer<typeof ParameterListResponseSchema>

import { describe, expect, it } from 'vitest'
import { lookupViewColumn, VIEW_COLUMN_NAMES, VIEW_COLUMNS } from './view-columns.js'

describe('view catalogue of res_view_letterbox', () => {
  it('lists the 49 columns in select * order, each once', () => {
    expect(VIEW_COLUMN_NAMES).toHaveLength(49)
    expect(new Set(VIEW_COLUMN_NAMES).size).toBe(49)
    expect(VIEW_COLUMN_NAMES.slice(0, 5)).toEqual(['res_id', 'type_id', 'filesize', 'work_batch', 'typist'])
    expect(VIEW_COLUMN_NAMES.slice(-4)).toEqual(['external_id', 'custom_fields', 'retention_frozen', 'binding'])
    expect([...VIEW_COLUMNS.keys()]).toEqual(VIEW_COLUMN_NAMES)
  })

  it('types the columns', () => {
    const count = (type: string) => [...VIEW_COLUMNS.values()].filter((t) => t === type).length
    expect([
      count('bigint'),
      count('integer'),
      count('text'),
      count('timestamp'),
      count('json'),
      count('boolean'),
    ]).toEqual([4, 5, 25, 11, 2, 2])
    expect(VIEW_COLUMNS.get('creation_date')).toBe('timestamp')
    expect(VIEW_COLUMNS.get('custom_fields')).toBe('json')
    expect(VIEW_COLUMNS.get('destination')).toBe('text')
  })

  it('looks names up case-insensitively and nothing else', () => {
    expect(lookupViewColumn('Res_ID')).toBe('res_id')
    expect(lookupViewColumn('password')).toBeUndefined()
    expect(lookupViewColumn('__proto__')).toBeUndefined()
    expect(lookupViewColumn('constructor')).toBeUndefined()
  })
})

import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { contentFilename, formatFilename, versionFilename } from './content-filename.js'

describe('content filenames', () => {
  it('replaces the forbidden characters and cuts to 250 characters', () => {
    expect(formatFilename('a\\b/c:d*e?f"g<h>i|j')).toBe('a_b_c_d_e_f_g_h_i_j')
    expect(formatFilename('é'.repeat(300))).toBe('é'.repeat(250))
    expect(Array.from(formatFilename('😀'.repeat(251))).length).toBe(250)
  })

  it('builds content and version names; an empty subject gives .pdf', () => {
    expect(contentFilename('Lettre: réponse', 'PDF')).toBe('Lettre_ réponse.pdf')
    expect(contentFilename('', 'pdf')).toBe('.pdf')
    expect(contentFilename(null, 'pdf')).toBe('.pdf')
    expect(versionFilename('Sujet', 2, 'pdf')).toBe('Sujet_V2.pdf')
  })

  it('never keeps a forbidden character', () => {
    fc.assert(fc.property(fc.string(), (s) => !/[\\/:*?"<>|]/.test(formatFilename(s))))
  })
})

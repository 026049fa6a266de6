import { describe, expect, it } from 'vitest'
import { ERROR_CATALOGUE } from './catalogue/index.js'
import { domainError, errorMessage, isDomainError } from './domain-error.js'

describe('error catalogue', () => {
  it('renders fixed messages exactly', () => {
    const error = domainError('ENTITY_NOT_FOUND')
    expect(error.message).toBe('Entity not found')
    expect(error.kind).toBe('bad-request')
    expect(error.code).toBe('ENTITY_NOT_FOUND')
    expect(isDomainError(error)).toBe(true)
    expect(errorMessage('AUTHENTICATION_FAILED')).toBe('Authentication Failed')
  })

  // One message may be answered with two statuses where 20.10 does so (`Attachment out of perimeter`: 400 on a
  // read, 403 on a removal): one code per status, the text typed once and shared by both.
  it('has no message typed twice under one kind', () => {
    const fixed = Object.values(ERROR_CATALOGUE)
      .filter((d) => typeof d.message === 'string')
      .map((d) => `${d.kind} ${d.message as string}`)
    expect(new Set(fixed).size).toBe(fixed.length)
  })

  it('uses UPPER_SNAKE codes', () => {
    for (const code of Object.keys(ERROR_CATALOGUE)) expect(code).toMatch(/^[A-Z][A-Z0-9_]*$/)
  })
})

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

  it('has no message typed twice', () => {
    const fixed = Object.values(ERROR_CATALOGUE)
      .map((d) => d.message as unknown)
      .filter((m): m is string => typeof m === 'string')
    expect(new Set(fixed).size).toBe(fixed.length)
  })

  it('uses UPPER_SNAKE codes', () => {
    for (const code of Object.keys(ERROR_CATALOGUE)) expect(code).toMatch(/^[A-Z][A-Z0-9_]*$/)
  })
})

import { describe, expect, it } from 'vitest'
import { checkLinkTargets, parseLinkedResources, parseLinkResId, parseUnlinkedId } from './link-request.js'

describe('the body of POST /rest/resources/{resId}/linkedResources', () => {
  it('answers 20.10 messages in its order', () => {
    for (const body of [{}, { linkedResources: 1 }, { linkedResources: [] }, null])
      expect(() => parseLinkedResources(body)).toThrow('Body linkedResources is empty or not an array')
    expect(() => parseLinkedResources({ linkedResources: ['abc'] })).toThrow('Body linkedResources out of perimeter')
    expect(() => parseLinkedResources({ linkedResources: Array(501).fill(1) })).toThrow('more than 500')
    expect(parseLinkedResources({ linkedResources: [1, '3', 1] })).toEqual([1, 3])
  })

  it('checks the perimeter before refusing a link to itself', () => {
    expect(() => checkLinkTargets(22, [22, 5], new Set([22]))).toThrow('Body linkedResources out of perimeter')
    expect(() => checkLinkTargets(22, [22], new Set([22]))).toThrow('Body linkedResources contains resource')
    expect(() => checkLinkTargets(22, [1, 3], new Set([1, 3]))).not.toThrow()
  })

  it('reads a malformed route id as out of perimeter', () => {
    expect(() => parseLinkResId('abc')).toThrow('Resource out of perimeter')
    expect(() => parseUnlinkedId('0')).toThrow('Resource to unlink out of perimeter')
  })
})

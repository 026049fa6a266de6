/**
 * The password rules of the reference's `password_rules` that apply when a password is chosen: a minimum
 * length and, each when above 0, a minimum count of upper-case letters, digits and special characters.
 */
export interface PasswordPolicy {
  readonly minLength: number
  readonly minUpper: number
  readonly minDigits: number
  readonly minSpecial: number
}

/** Defaults: 12 characters, no composition rule (length is what makes a password hard to guess). */
export const DEFAULT_PASSWORD_POLICY: PasswordPolicy = { minLength: 12, minUpper: 0, minDigits: 0, minSpecial: 0 }

/** Longest password accepted: scrypt hashes any length, but a megabyte of password is an attack. */
export const MAX_PASSWORD_LENGTH = 1024

function count(password: string, pattern: RegExp): number {
  return [...password].filter((c) => pattern.test(c)).length
}

/** The rules `password` breaks, as phrases (empty: it follows the policy). Lengths count characters, not bytes. */
export function passwordPolicyViolations(password: string, policy: PasswordPolicy = DEFAULT_PASSWORD_POLICY): string[] {
  const broken: string[] = []
  const length = [...password].length
  if (length < policy.minLength) broken.push(`at least ${policy.minLength} characters`)
  if (length > MAX_PASSWORD_LENGTH) broken.push(`at most ${MAX_PASSWORD_LENGTH} characters`)
  if (count(password, /\p{Lu}/u) < policy.minUpper)
    broken.push(`at least ${policy.minUpper} upper-case letter${policy.minUpper > 1 ? 's' : ''}`)
  if (count(password, /\p{Nd}/u) < policy.minDigits)
    broken.push(`at least ${policy.minDigits} digit${policy.minDigits > 1 ? 's' : ''}`)
  if (count(password, /[^\p{L}\p{Nd}]/u) < policy.minSpecial)
    broken.push(`at least ${policy.minSpecial} special character${policy.minSpecial > 1 ? 's' : ''}`)
  return broken
}

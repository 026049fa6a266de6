/** The organisation document: reference data and users as one versioned file, its checks and its plan. */

export { compactOrganisation } from './compact-organisation.js'
export * from './organisation-schema.js'
export type {
  ApplyOrganisationOptions,
  ChangeAuthor,
  NewUser,
  OrganisationApplyResult,
  OrganisationHistoryEntry,
  OrganisationServices,
  UserSummary,
} from './organisation-services.js'
export { administratorOf } from './organisation-services.js'
export type { PasswordPolicy } from './password-policy.js'
export { DEFAULT_PASSWORD_POLICY, MAX_PASSWORD_LENGTH, passwordPolicyViolations } from './password-policy.js'
export type {
  OrganisationPlan,
  OrganisationPlanSummary,
  OrganisationState,
  OrganisationUsage,
  PlanOptions,
  SectionChanges,
} from './plan-organisation.js'
export { describePlan, describeSummary, isEmptyPlan, planOrganisation, summarisePlan } from './plan-organisation.js'
export type { KnownReferences, OrganisationIssue, OrganisationValidation } from './validate-organisation.js'
export { checkPerimeterClause, formatIssue, formatIssuePath, validateOrganisation } from './validate-organisation.js'

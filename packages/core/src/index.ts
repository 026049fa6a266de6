/**
 * @module @mailroom/core
 * Domain rules of Mailroom with no I/O: schemas, the clause language, perimeter rules, the error catalogue
 * and the use cases, written against ports that storage adapters implement.
 *
 * Every export is listed by name: the use cases' factories (`create<Capability>UseCases`) and the ports they are
 * built over, which is what a composition root needs. Helpers that only Mailroom's own packages share (the
 * journal's recorder, the clause language's tables for SQL, the organisation plan's wording…) are in
 * `@mailroom/core/internal`, which is not public API.
 */

export { MAARCH_ACTION_COMPONENTS, SUPPORTED_ACTION_COMPONENTS } from './actions/action-components.js'
export { LOCK_SECONDS, MAX_ACTION_RESOURCES } from './actions/action-limits.js'
export type { ActionNote, ActionRequest } from './actions/action-request.js'
export type { ActionsPorts, ActionsServices } from './actions/actions-services.js'
export { createActionsUseCases } from './actions/actions-services.js'
export type { ListRouteIds } from './actions/list-control.js'
export type { CloseWithFieldsCheck, OfferedActionItem, OfferedActions } from './actions/offered-actions.js'
export type {
  ActionBasket,
  ActionGroup,
  ActionMeta,
  ActionsStore,
  BasketScope,
  ComponentWork,
  LetterActionPlan,
  LetterLock,
  LetterOutcome,
  OfferedAction,
  RedirectRule,
  RedirectTreeEntity,
  RedirectUser,
  StoredAction,
} from './actions/ports.js'
export type { RedirectChoices, RedirectEntityNode } from './actions/redirect-choices.js'
export { DIFFUSION_LIST_HISTORY, type RedirectData, type RedirectItem } from './actions/redirect-data.js'
export type { ActionRouteIds, ActionRunAnswer } from './actions/run-action.js'
export type { Actor, ActorEntity, ActorGroup, UserMode } from './actors/actor.js'
export type { Privilege } from './actors/privileges.js'
export { CHECKED_PRIVILEGES, hasPrivilege, privilegesOf } from './actors/privileges.js'
export {
  ActionRunAnswerSchema,
  type ActionRunBody,
  ActionRunBodySchema,
  BasketActionPathSchema,
  CloseWithFieldsCheckSchema,
  type LetterListBody,
  LetterListBodySchema,
  LockedLettersSchema,
  OfferedActionsQuerySchema,
  OfferedActionsSchema,
  RedirectChoicesSchema,
} from './api/action-schemas.js'
export type { CreateAttachmentBody } from './api/attachment-schemas.js'
export {
  AttachmentContentBase64ResponseSchema,
  AttachmentContentQuerySchema,
  AttachmentIdPathSchema,
  AttachmentListResponseSchema,
  AttachmentOriginalBase64ResponseSchema,
  AttachmentResponseSchema,
  AttachmentsOfRecordPathSchema,
  AttachmentsOfRecordQuerySchema,
  AttachmentTypesResponseSchema,
  CreateAttachmentRequestSchema,
  CreateAttachmentResponseSchema,
} from './api/attachment-schemas.js'
export type { AuthenticateBody, IdentityProviderOffer, RefreshTokenResponse } from './api/auth-schemas.js'
export {
  AuthenticateBodySchema,
  AuthenticateResponseHeadersSchema,
  IdentityProviderOfferSchema,
  RefreshTokenParamsSchema,
  RefreshTokenResponseSchema,
} from './api/auth-schemas.js'
export type {
  AssignedBasket,
  BasketFilters,
  BasketList,
  BasketListRow,
  DisplayItem,
  EntityFilterEntry,
  FilterEntry,
  Home,
  HomeBasket,
  IsAllowed,
  LastResources,
} from './api/basket-schemas.js'
export {
  AssignedBasketSchema,
  BasketFiltersSchema,
  BasketListPathSchema,
  BasketListQuerySchema,
  BasketListRowSchema,
  BasketListSchema,
  DisplayItemSchema,
  HomeBasketSchema,
  HomeSchema,
  IsAllowedPathSchema,
  IsAllowedSchema,
  LastResourcesSchema,
} from './api/basket-schemas.js'
export type {
  ContactBody,
  ContactCreatedResponse,
  ContactListResponse,
  ContactResponse,
} from './api/contact-schemas.js'
export {
  ContactBodySchema,
  ContactByMailQuerySchema,
  ContactByPhoneQuerySchema,
  ContactCreatedResponseSchema,
  ContactCreateQuerySchema,
  ContactListQuerySchema,
  ContactListResponseSchema,
  ContactLookupResponseSchema,
  ContactPathSchema,
  ContactSchema,
} from './api/contact-schemas.js'
export type {
  ContentBase64Response,
  ContentParams,
  OriginalContentBase64Response,
  OriginalContentParams,
  VersionContentParams,
  VersionContentResponse,
} from './api/content-schemas.js'
export {
  ContentBase64ResponseSchema,
  ContentParamsSchema,
  OriginalContentBase64ResponseSchema,
  OriginalContentParamsSchema,
  ResIdPathSchema,
  VersionContentParamsSchema,
  VersionContentResponseSchema,
  VersionPathSchema,
} from './api/content-schemas.js'
export type {
  CriteriaSearchBody,
  CriteriaSearchFilters,
  CriteriaSearchResource,
  CriteriaSearchResponse,
  SearchConfigurationResponse,
} from './api/criteria-search-schemas.js'
export {
  CriteriaSearchBodySchema,
  CriteriaSearchQuerySchema,
  CriteriaSearchResponseSchema,
  SearchConfigurationResponseSchema,
} from './api/criteria-search-schemas.js'
export type { EntityResponse } from './api/entity-schemas.js'
export { EntityPathSchema } from './api/entity-schemas.js'
export type { ErrorBody } from './api/error-body-schema.js'
export { ErrorBodySchema } from './api/error-body-schema.js'
export type { FullTextBacklog, LivenessResponse, ReadinessResponse } from './api/health-schemas.js'
export {
  FullTextBacklogSchema,
  LivenessResponseSchema,
  ReadinessQuerySchema,
  ReadinessResponseSchema,
} from './api/health-schemas.js'
export type { JournalErrorResponse, JournalEventsParams, JournalEventsResponse } from './api/journal-schemas.js'
export {
  JournalErrorResponseSchema,
  JournalEventsParamsSchema,
  JournalEventsResponseSchema,
  JournalPathSchema,
} from './api/journal-schemas.js'
export type { ChainVerificationResponse } from './api/journal-verification-schemas.js'
export {
  ChainVerificationQuerySchema,
  ChainVerificationResponseSchema,
  chainVerificationBody,
} from './api/journal-verification-schemas.js'
export {
  IndexingFileInformationsSchema,
  ResourceDetailSchema,
  ResourceFieldPathSchema,
  ResourceFieldQuerySchema,
  ResourceFieldSchema,
  ResourceFileInformationSchema,
  ResourceItemsSchema,
  ResourceQuerySchema,
  ResourceVersionsSchema,
} from './api/letter-page-schemas.js'
export type { LinkResourcesBody } from './api/link-schemas.js'
export { LinkedResourcesSchema, LinkResourcesBodySchema, UnlinkPathSchema } from './api/link-schemas.js'
export { ListInstanceSchema } from './api/list-instance-schemas.js'
export type {
  DiffusionRoles,
  EntityListTemplates,
  EntityUsers,
  ListTemplate,
  ListTemplateItem,
} from './api/list-template-schemas.js'
export {
  DiffusionRolesQuerySchema,
  DiffusionRolesSchema,
  EntityListTemplatesPathSchema,
  EntityListTemplatesQuerySchema,
  EntityListTemplatesSchema,
  EntityUsersPathSchema,
  EntityUsersSchema,
} from './api/list-template-schemas.js'
export type { NoteCreateBody, NotesTemplates } from './api/note-schemas.js'
export {
  NoteCreateBodySchema,
  NoteCreatedSchema,
  NoteDetailSchema,
  NoteIdPathSchema,
  NotesQuerySchema,
  NotesTemplatesQuerySchema,
  NotesTemplatesSchema,
  RecordNotesSchema,
} from './api/note-schemas.js'
export type {
  NewUserBody,
  OrganisationHistoryResponse,
  OrganisationPlanResponse,
  UserSummaryResponse,
} from './api/organisation-schemas.js'
export {
  NewUserBodySchema,
  OrganisationApplyQuerySchema,
  OrganisationDocumentBodySchema,
  OrganisationHistoryQuerySchema,
  OrganisationHistoryResponseSchema,
  OrganisationPlanResponseSchema,
  parseAdminBody,
  UserListResponseSchema,
  UserLoginPathSchema,
  UserPasswordBodySchema,
  UserStatusBodySchema,
  UserSummarySchema,
} from './api/organisation-schemas.js'
export type {
  Parameter,
  ParameterListResponse,
  ParameterResponse,
} from './api/parameter-schemas.js'
export {
  ParameterListResponseSchema,
  ParameterPathSchema,
  ParameterResponseSchema,
  ParameterSchema,
} from './api/parameter-schemas.js'
export type {
  ContactsCustomFields,
  DestinationChanging,
  ExternalSummary,
  HistoryLine,
  HistoryPage,
  IndexingModelEntities,
  ProcessingData,
} from './api/processing-page-schemas.js'
export {
  ContactsCustomFieldsSchema,
  DestinationChangingPathSchema,
  DestinationChangingSchema,
  ExternalSummaryPathSchema,
  ExternalSummarySchema,
  HistoryPageSchema,
  HistoryQuerySchema,
  IndexingModelEntitiesSchema,
  ProcessingDataPathSchema,
  ProcessingDataSchema,
  ProcessingPageLimitQuerySchema,
} from './api/processing-page-schemas.js'
export type { CreateRecordBody, CreateRecordResponse, EarlierCreateRecordBody } from './api/record-schemas.js'
export {
  CreateRecordBodySchema,
  CreateRecordRequestSchema,
  CreateRecordResponseSchema,
  EarlierCreateRecordBodySchema,
} from './api/record-schemas.js'
export type {
  CustomFieldListResponse,
  Doctype,
  DoctypeResponse,
  DoctypeTreeResponse,
  EntityListResponse,
  EntityTreeNode,
  FolderListResponse,
  IndexingModelListResponse,
  IndexingModelResponse,
  PriorityListResponse,
  StatusListResponse,
  TagListResponse,
} from './api/reference-schemas.js'
export {
  CustomFieldListResponseSchema,
  DoctypeResponseSchema,
  DoctypeTreeResponseSchema,
  EntityListResponseSchema,
  FolderListResponseSchema,
  IndexingModelListResponseSchema,
  IndexingModelResponseSchema,
  IntegerIdPathSchema,
  PriorityListResponseSchema,
  StatusListResponseSchema,
  TagListResponseSchema,
} from './api/reference-schemas.js'
export type { SearchBody, SearchResponse } from './api/search-schemas.js'
export { SearchBodySchema, SearchResponseSchema } from './api/search-schemas.js'
export {
  type AuthenticationInformations,
  AuthenticationInformationsSchema,
  type ExternalConnectionsResponse,
  ExternalConnectionsResponseSchema,
  ImageQuerySchema,
  LanguagePathSchema,
  type LanguageResponse,
  LanguageResponseSchema,
  type PasswordRulesResponse,
  PasswordRulesResponseSchema,
  type PinnedFoldersResponse,
  PinnedFoldersResponseSchema,
  VersionsUpdateSqlBodySchema,
  WEB_CLIENT_IMAGES,
  WEB_CLIENT_LANGUAGES,
  type WebClientImage,
  type WebClientLanguage,
} from './api/session-shell-schemas.js'
export type { RecordHistoryResponse, StatusUpdateBody, StatusUpdateResponse } from './api/status-schemas.js'
export {
  RecordHistoryResponseSchema,
  StatusUpdateBodySchema,
  StatusUpdateResponseSchema,
} from './api/status-schemas.js'
export type { CurrentUserProfile, UsersResponse } from './api/user-schemas.js'
export { CurrentUserProfileSchema, UsersResponseSchema } from './api/user-schemas.js'
export type { NewVersionBody, NewVersionResponse } from './api/version-schemas.js'
export { NewVersionBodySchema, NewVersionResponseSchema } from './api/version-schemas.js'
export type { ActingMailroom, BoundServices } from './application/bind-actor.js'
export { actAs } from './application/bind-actor.js'
export type { MailroomHealth, MailroomServices } from './application/mailroom-services.js'
export type { ReferenceRepositories, ReferenceServices } from './application/reference-services.js'
export { createReferenceUseCases } from './application/reference-services.js'
export type {
  AttachmentBody,
  AttachmentContentBase64Body,
  AttachmentListBody,
  AttachmentListItem,
  AttachmentOriginalBase64Body,
  AttachmentServices,
  AttachmentTypesBody,
} from './attachments/attachment-services.js'
export type { AttachmentDependencies } from './attachments/attachment-use-cases.js'
export { createAttachmentUseCases } from './attachments/attachment-use-cases.js'
export type {
  AttachmentCreatePorts,
  AttachmentMaster,
  AttachmentOrigin,
  NewAttachment,
} from './attachments/create-attachment.js'
export type {
  AttachmentReadDependencies,
  AttachmentReadStore,
  AttachmentReads,
  ServableAttachment,
  StoredAttachmentListItem,
} from './attachments/read-attachments.js'
export type {
  AttachmentRemoval,
  AttachmentRemovalStore,
  AttachmentToRemove,
} from './attachments/remove-attachment.js'
export type { AuthDependencies, AuthService, AuthSettings, SessionTokens } from './auth/auth-service.js'
export { createAuthService, DEFAULT_AUTH_SETTINGS } from './auth/auth-service.js'
export type { ConsoleSignInService } from './auth/console-sign-in.js'
export type {
  AuthenticationMethodName,
  AuthThrottle,
  Clock,
  DirectoryAuthenticator,
  DirectoryCheck,
  IdentityProvider,
  IdGenerator,
  PasswordHasher,
  ThrottleCounter,
  TokenClaims,
  TokenSigner,
  TokenUser,
  UserCredentials,
  UserRepository,
} from './auth/ports.js'
export { AUTHENTICATION_METHODS } from './auth/ports.js'
export type { ThrottlePolicy } from './auth/throttle-policy.js'
export { DEFAULT_THROTTLE_POLICY } from './auth/throttle-policy.js'
export type { BasketClauseSource } from './baskets/basket-clause.js'
export { basketClauseRefusal, basketClauseTree } from './baskets/basket-clause.js'
export type { BasketListQuery, ListOrderItem, NullableFilter } from './baskets/basket-list-query.js'
export type { BasketsDependencies } from './baskets/basket-use-cases.js'
export { createBasketsUseCases } from './baskets/basket-use-cases.js'
export type {
  BasketListPath,
  BasketListStoredRow,
  BasketStore,
  BasketsServices,
  BasketToCount,
  DisplayValue,
  GroupBasketDisplay,
  HomeBasketRow,
  LentBasket,
  ProfileBasketRow,
  ProfileBaskets,
  StoredBasket,
  StoredGroup,
} from './baskets/ports.js'
export type { ContactJson, ContactTextField, ContactValues, StoredContact } from './contacts/contact.js'
export { CONTACT_TEXT_FIELDS } from './contacts/contact.js'
export type { ContactListQuery } from './contacts/contact-list-query.js'
export type { ContactCivility, ContactFilling, ContactListItem, ContactView } from './contacts/contact-view.js'
export type {
  ContactCreatedAnswer,
  ContactCreateOptions,
  ContactListAnswer,
  ContactsServices,
} from './contacts/contacts-services.js'
export { createContactsServices } from './contacts/contacts-services.js'
export type {
  ContactChange,
  ContactInsert,
  ContactPage,
  ContactRepository,
  ContactWithCreator,
} from './contacts/ports.js'
export type {
  ContentFile,
  ContentLookup,
  ContentReadStore,
  ContentRecord,
  Download,
  OperatorLog,
  ReadDigest,
  ReadTrace,
  StoredConversion,
  VerifiedFile,
  WatermarkMemo,
} from './content/content-read-ports.js'
export type { ContentMode, VersionType } from './content/content-request.js'
export type {
  ContentBase64Body,
  ContentQuery,
  ContentReadMeta,
  ContentResult,
  ContentServices,
  NewVersionResult,
  OriginalContentBase64Body,
  OriginalContentQuery,
  ServedFile,
  VersionContentBody,
  VersionContentQuery,
} from './content/content-services.js'
export type { ContentDependencies } from './content/content-use-cases.js'
export { createContentUseCases } from './content/content-use-cases.js'
export type {
  CurrentOriginal,
  NewVersionDependencies,
  VersionPlacement,
  VersionStore,
} from './content/create-version.js'
export type { NewVersionKind, NewVersionRequest } from './content/new-version-request.js'
export type {
  ChronoMerger,
  ConvertInput,
  MimeTypeSniffer,
  PdfConverter,
  PdfWatermarker,
  PreparedChronoMerge,
} from './content/ports.js'
export type { ContentReadDependencies, ContentReads } from './content/read-content.js'
export { contentViewHistory } from './content/serve-file.js'
export type { RgbColor, WatermarkOptions, WatermarkSettingsInput } from './content/watermark-text.js'
export { DEFAULT_WATERMARK_OPTIONS, parseWatermarkSettings } from './content/watermark-text.js'
export type {
  Correspondent,
  CriteriaTerm,
  CustomFieldMatch,
  CustomFieldType,
  DateColumn,
  FacetName,
  FacetSelection,
  FlagColumn,
  RoleItem,
  SearchCriteria,
  SearchOrder,
  SearchPaging,
} from './criteria-search/criteria.js'
export type { CriteriaSearchServices } from './criteria-search/criteria-search-services.js'
export type {
  CriteriaMatches,
  CriteriaSearchStore,
  FacetRow,
  ResourceRow,
} from './criteria-search/ports.js'
export type { CriteriaSearchDependencies } from './criteria-search/search-by-criteria.js'
export { createCriteriaSearchUseCases } from './criteria-search/search-by-criteria.js'
export { CATEGORY_LABELS } from './criteria-search/search-configuration.js'
export type {
  DiffusionListDependencies,
  DiffusionListServices,
  DiffusionListStore,
  ListInstance,
  ListInstanceItem,
} from './diffusion-list/list-instance.js'
export { createDiffusionListUseCases } from './diffusion-list/list-instance.js'
export type { DirectoryAccount, DirectoryAccountSource } from './directory-sync/directory-account.js'
export type { DirectorySyncMapping, DirectorySyncMappingInput } from './directory-sync/directory-mapping.js'
export { DirectorySyncMappingSchema, readDirectoryMapping } from './directory-sync/directory-mapping.js'
export type { DirectorySyncDocument } from './directory-sync/plan-directory-sync.js'
export { planDirectorySync } from './directory-sync/plan-directory-sync.js'
export type { DirectorySyncOptions, DirectorySyncResult } from './directory-sync/sync-directory-users.js'
export { syncDirectoryUsers } from './directory-sync/sync-directory-users.js'
export type {
  DoctypeFirstLevelRow,
  DoctypeRepository,
  DoctypeRow,
  DoctypeSecondLevelRow,
} from './doctypes/ports.js'
export type { Entity, EntityRow } from './entities/entity.js'
export { EntityResponseSchema } from './entities/entity.js'
export type { EntityRepository } from './entities/ports.js'
export { readEntity } from './entities/read-entity.js'
export { ERROR_CATALOGUE } from './errors/catalogue/index.js'
export type { ErrorArgs, ErrorCode } from './errors/domain-error.js'
export { DomainError, domainError, errorMessage, fail, isDomainError } from './errors/domain-error.js'
export type { ErrorDefinition, ErrorKind } from './errors/error-definition.js'
export type { FolderRepository, VisibleFolderRow } from './folders/ports.js'
export type {
  FullTextCandidate,
  FullTextFileRef,
  FullTextIndex,
  FullTextIndexedText,
  FullTextIndexQuery,
} from './fulltext/fulltext-index.js'
export type {
  ExtractedText,
  ExtractionInput,
  ExtractionMethod,
  FullTextLanguage,
  TextExtractor,
} from './fulltext/ports.js'
export { FULLTEXT_LANGUAGES } from './fulltext/ports.js'
export type { HistoryRow, HistoryWording } from './history/history-row.js'
export type { IndexingFieldRow, IndexingModelRepository, IndexingModelRow } from './indexing-models/ports.js'
export { JOURNAL_DESCRIPTIONS } from './journal/build-journal-event.js'
export type {
  ArchiveJournalEvent,
  ConsultationEvent,
  ConsultationInfo,
  DepositEvent,
  DepositInfo,
  IntegrityCheckEvent,
  IntegrityCheckInfo,
  JournalEvent,
  JournalEventBase,
  JournalEventType,
  JournalObjectClass,
  JournalReadEvent,
  NewResourceEvent,
  OrganizationJournalInfo,
  Sha256Hex,
} from './journal/journal-event.js'
export type { JournalQuery } from './journal/journal-query.js'
export type { JournalReading, JournalServices } from './journal/journal-services.js'
export type { EventInfoItem, LifeCycleEvent } from './journal/life-cycle-event.js'
export type { JournalDependencies, JournalPageEntry, JournalReadStore, JournalScope } from './journal/read-journal.js'
export { createJournalUseCases } from './journal/read-journal.js'
export type { SafeDirectory, SafeEntity } from './journal/safe-directory.js'
export type {
  ChainVerificationOptions,
  JournalBreak,
  JournalBreakReason,
  SafeChainVerifier,
  SafeVerification,
} from './journal/safe-verification.js'
export type { ChainBreakReason, ChainVerification, VerifyChainOptions } from './journal/verify-chain.js'
export { verifyChain } from './journal/verify-chain.js'
export type {
  AllowedFile,
  IndexingFileInformations,
  LetterPageServices,
  ResourceCorrespondent,
  ResourceDetail,
  ResourceField,
  ResourceFileInformation,
  ResourceItems,
  ResourceVersions,
} from './letter-page/letter-page.js'
export type { LetterPageDependencies } from './letter-page/letter-page-use-cases.js'
export { createLetterPageUseCases } from './letter-page/letter-page-use-cases.js'
export type {
  LetterPageStore,
  NamedEntity,
  ResourceSurroundings,
  StoredFields,
  StoredFileFacts,
  StoredItemCounts,
  StoredResource,
  StoredVersions,
} from './letter-page/ports.js'
export type { LinksDependencies } from './links/link-use-cases.js'
export { createLinksUseCases } from './links/link-use-cases.js'
export type { LinkedResource, LinkedResources, LinksServices } from './links/linked-resource.js'
export type { LinksStore, LockedChronos } from './links/ports.js'
export { createListTemplateUseCases } from './list-templates/list-template-use-cases.js'
export type {
  CircuitPrivilege,
  ListTemplateDependencies,
  ListTemplateServices,
  ListTemplateStore,
  ListTemplateType,
  StoredListTemplate,
  StoredListTemplateItem,
  TemplateUser,
} from './list-templates/ports.js'
export type { LockedLetters } from './locks/lock-letters.js'
export type { LocksStore } from './locks/ports.js'
export type { NoteCreated, NoteDetail, RecordNote, RecordNotes } from './notes/note.js'
export type { NotesDependencies } from './notes/note-use-cases.js'
export { createNotesUseCases } from './notes/note-use-cases.js'
export type { NoteRequestMeta, NotesServices } from './notes/notes-services.js'
export type { ListedNote, NewNote, NoteRestrictionEntity, NotesStore, StoredNote } from './notes/ports.js'
export type {
  AuthenticationMethod,
  AuthObserver,
  ConversionObserver,
  ConversionRoute,
  HttpObserver,
  HttpRequestObservation,
  MailroomObserver,
  OperationalStatistics,
  ThrottleScope,
} from './observability/ports.js'
export type {
  ActionComponent,
  ActionDefinition,
  BasketActionLink,
  BasketDefinition,
  BasketGroupDefinition,
  RedirectChoice,
} from './organisation/basket-definitions.js'
export {
  ACTION_CATEGORIES,
  ACTION_COMPONENTS,
  ActionDefinitionSchema,
  BASKET_RES_ORDER,
  BasketDefinitionSchema,
  canonicalAction,
  canonicalBasket,
  LIST_EVENTS,
  NO_STATUS,
  REDIRECT_KEYWORDS,
} from './organisation/basket-definitions.js'
export { compactOrganisation } from './organisation/compact-organisation.js'
export type { ListTemplateDefinition } from './organisation/list-template-definitions.js'
export { LIST_TEMPLATE_TYPES, ListTemplateDefinitionSchema } from './organisation/list-template-definitions.js'
export type {
  AttachmentTypeDefinition,
  ContactDefinition,
  CustomFieldDefinition,
  DoctypeDefinition,
  DoctypeFirstLevelDefinition,
  DoctypeSecondLevelDefinition,
  EntityDefinition,
  FolderDefinition,
  GroupDefinition,
  IndexingFieldDefinition,
  IndexingKeyword,
  IndexingModelDefinition,
  OrganisationDocument,
  OrganisationDocumentInput,
  OrganisationItems,
  OrganisationSection,
  ParameterDefinition,
  PriorityDefinition,
  StatusDefinition,
  TagDefinition,
  UserDefinition,
  UserDefinitionInput,
  UserEntityMembership,
  UserModeName,
} from './organisation/organisation-schema.js'
export {
  AttachmentTypeDefinitionSchema,
  OrganisationDocumentSchema,
  organisationJsonSchema,
  USER_MODES,
} from './organisation/organisation-schema.js'
export type {
  ApplyOrganisationOptions,
  ChangeAuthor,
  NewUser,
  OrganisationApplyResult,
  OrganisationHistoryEntry,
  OrganisationServices,
  UserSummary,
} from './organisation/organisation-services.js'
export type { PasswordPolicy } from './organisation/password-policy.js'
export { DEFAULT_PASSWORD_POLICY, passwordPolicyViolations } from './organisation/password-policy.js'
export type {
  OrganisationPlan,
  OrganisationPlanSummary,
  OrganisationState,
  OrganisationUsage,
  PlanOptions,
  SectionChanges,
} from './organisation/plan-organisation.js'
export { describeSummary, planOrganisation } from './organisation/plan-organisation.js'
export type {
  KnownReferences,
  OrganisationIssue,
  OrganisationValidation,
  ValidateOrganisationOptions,
} from './organisation/validate-organisation.js'
export { checkBasketClause, validateOrganisation } from './organisation/validate-organisation.js'
export type { ParameterRepository } from './parameters/ports.js'
export type { RecordPerimeter } from './perimeter/ports.js'
export { HISTORY_LIMIT_MAX } from './processing-page/history-query.js'
export type {
  HistoryOrderColumn,
  HistoryPageQuery,
  ProcessingPageServices,
  ProcessingPageStore,
  RecordStatusOf,
} from './processing-page/ports.js'
export type { ProcessingPageDependencies } from './processing-page/processing-page-use-cases.js'
export { createProcessingPageUseCases } from './processing-page/processing-page-use-cases.js'
export type { ChronoPlan } from './records/chrono.js'
export type { CreateRecordDependencies } from './records/create-record.js'
export type {
  DiffusionItem,
  NewRecord,
  NewRecordFile,
  RecordContact,
  RecordIntegrations,
} from './records/new-record.js'
export type {
  CreatePreparation,
  CustomFieldFacts,
  DisabledModelField,
  EarlierReferenceFacts,
  EarlierReferenceQuery,
  IndexingModelFacts,
  RecordReferenceFacts,
  RecordReferenceQuery,
  RecordsRepository,
  RecordTreeEntity,
  StagedFile,
} from './records/ports.js'
export type { RecordsServices } from './records/records-services.js'
export { createRecordsUseCases } from './records/records-services.js'
export type {
  CustomFieldRepository,
  PriorityRepository,
  ReferenceList,
  StatusRepository,
  TagRepository,
} from './reference-lists/ports.js'
export type {
  ArithmeticExpr,
  ArithmeticOperator,
  BetweenExpr,
  BooleanLiteral,
  CallExpr,
  CastExpr,
  CastType,
  ClauseAst,
  ColumnRef,
  ComparisonExpr,
  ComparisonOperator,
  ConcatExpr,
  ExtractExpr,
  ExtractField,
  FullTextExpr,
  FullTextFunctionName,
  InExpr,
  InSelectExpr,
  IsExpr,
  JsonAccessExpr,
  LikeExpr,
  LogicalExpr,
  MacroArg,
  MacroName,
  MacroRef,
  NegateExpr,
  NotExpr,
  NullLiteral,
  NumberLiteral,
  OrderItem,
  SearchFunctionName,
  StringLiteral,
  SubSelect,
  SubSelectOrder,
  TableColumnRef,
  TypedLiteral,
  TypedLiteralType,
} from './search/ast.js'
export type { SearchDependencies } from './search/find-records.js'
export { createSearchUseCases } from './search/find-records.js'
export { MAX_CLAUSE_BYTES } from './search/limits.js'
export type { ParseClauseOptions } from './search/parser.js'
export { parseClause, parseOrderItem } from './search/parser.js'
export type { RecordSearchStore, SearchMatch, SearchMatches } from './search/ports.js'
export { printClause } from './search/printer.js'
export type { SearchQuery } from './search/search-request.js'
export type {
  JsonValue,
  SearchFile,
  SearchHit,
  SearchHits,
  SearchRecord,
  SearchResult,
} from './search/search-result.js'
export type { SearchServices } from './search/search-services.js'
export type { ClauseAuthor, SubqueryTable, SubqueryTableName } from './search/subquery-tables.js'
export { SUBQUERY_TABLES } from './search/subquery-tables.js'
export type { ViewColumnName, ViewColumnType } from './search/view-columns.js'
export { VIEW_COLUMN_NAMES, VIEW_COLUMNS } from './search/view-columns.js'
export {
  createSessionShell,
  type SessionShellServices,
  type SessionShellSettings,
  safeHtml,
} from './session-shell/index.js'
export type { StatusDependencies } from './status/change-status.js'
export { createStatusUseCases } from './status/change-status.js'
export type { RecordStatusStore, StatusChange, TargetStatus } from './status/ports.js'
export type { HistoryEntry, RecordHistory } from './status/record-history.js'
export type { StatusServices, StatusUpdateMeta, StatusUpdateResult } from './status/status-services.js'
export type { TargetLookup } from './status/status-targets.js'
export type { StatusTargets } from './status/status-update-request.js'
export type { StoredProfile, UserDirectory, UserListItem } from './users/ports.js'
export type { ProfileSettings } from './users/read-users.js'

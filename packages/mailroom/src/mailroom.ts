import { createHash, createHmac, randomBytes, randomUUID } from 'node:crypto'
import { hostname } from 'node:os'
import {
  type ActingMailroom,
  type Actor,
  type AuthObserver,
  type AuthSettings,
  actAs,
  type Clock,
  createActionsUseCases,
  createAttachmentUseCases,
  createAuthService,
  createBasketsUseCases,
  createContactsServices,
  createContentUseCases,
  createCriteriaSearchUseCases,
  createDiffusionListUseCases,
  createJournalUseCases,
  createLetterPageUseCases,
  createLinksUseCases,
  createListTemplateUseCases,
  createNotesUseCases,
  createProcessingPageUseCases,
  createRecordsUseCases,
  createReferenceUseCases,
  createSearchUseCases,
  createSessionShell,
  createStatusUseCases,
  DEFAULT_PASSWORD_POLICY,
  type DirectoryAuthenticator,
  type FullTextIndex,
  fail,
  type MailroomServices,
  type OperationalStatistics,
  type PasswordHasher,
  type PasswordPolicy,
  type PdfConverter,
  readEntity,
  type TextExtractor,
  type ThrottlePolicy,
} from '@mailroom/core'
import {
  createLdapDirectory,
  createOidcIdentityProvider,
  type LdapDirectorySettings,
  type OidcSettings,
} from '@mailroom/directory'
import {
  CommandLineTextExtractor,
  ConversionService,
  mimeTypeSniffer,
  officeChronoMerger,
  pdfWatermarker,
} from '@mailroom/documents'
import {
  actionsPorts,
  attachmentPorts,
  basketsPorts,
  type ContentSettings,
  contentPorts,
  createFullTextServices,
  createOrganisationAdmin,
  criteriaSearchPorts,
  type Database,
  type DatabaseTarget,
  DEFAULT_FULLTEXT_SETTINGS,
  type DocumentStore,
  databaseFromKysely,
  databaseFromPool,
  diffusionListPorts,
  type FullTextObserver,
  type FullTextServices,
  type FullTextSettings,
  JournalWriter,
  type JournalWriterOptions,
  journalPorts,
  KyselyAuthThrottle,
  KyselyContactRepository,
  KyselyEntityRepository,
  KyselyUserRepository,
  type Logger,
  letterPagePorts,
  linksPorts,
  listTemplatePorts,
  type MailroomDatabase,
  migrateToLatest,
  notesPorts,
  type OrganisationAdmin,
  openDatabase,
  PerimeterGuard,
  type PgPoolLike,
  pendingMigrations,
  processingPagePorts,
  readOperationalStatistics,
  recordsPorts,
  referencePorts,
  type SearchSettings,
  SILENT_LOGGER,
  type StorageContext,
  searchPorts,
  statusPorts,
  targetFromString,
  withStartupLock,
} from '@mailroom/storage'
import { Kysely } from 'kysely'
import { loadDemoData } from './demo/demo-dataset.js'
import { type DocumentStoreChoice, documentStoreFor } from './document-store-choice.js'
import { createConsoleSignIn } from './security/console-sign-in.js'
import { HmacTokenSigner } from './security/hmac-token-signer.js'
import { ScryptPasswordHasher } from './security/scrypt-password-hasher.js'

/** How to build a Mailroom: where its data lives and the secret its tokens are signed with. */
export interface MailroomOptions extends DocumentStoreChoice {
  /**
   * Where the data lives: a target to open; a connection string (`postgres://…`, a PGlite directory or
   * `memory://`); a pg pool or a kysely instance owned by the caller; or an already open MailroomDatabase.
   * Mailroom closes only what it opened itself.
   */
  readonly database: DatabaseTarget | MailroomDatabase | string | PgPoolLike | Kysely<any>
  /** Token signing secret (at least 16 characters). */
  readonly secret: string
  /**
   * Secrets that signed tokens before `secret` replaced them: their tokens stay valid (until they expire
   * or are revoked), new tokens are signed with `secret` only.
   */
  readonly previousSecrets?: readonly string[]
  /** Apply pending migrations first (default true). */
  readonly migrate?: boolean
  /** Load the demo dataset when the database has no user yet (default false). */
  readonly demo?: boolean
  readonly passwordHasher?: PasswordHasher
  /** Rules every password set through Mailroom must follow (default: 12 characters at least). */
  readonly passwordPolicy?: Partial<PasswordPolicy>
  readonly clock?: Clock
  readonly auth?: Partial<AuthSettings>
  /**
   * Limits of the authentication throttle (core's ThrottlePolicy: per login and address, per address, the
   * progressive delay, the optional account lock), or false for no failure counting at all.
   */
  readonly throttle?: Partial<ThrottlePolicy> | false
  /**
   * The organisation's directory, which checks the passwords of users whose method is `ldap`: LDAP settings
   * (docs/directory-sign-in.md) or an authenticator of one's own. Without it those users cannot sign in.
   */
  readonly directory?: LdapDirectorySettings | DirectoryAuthenticator
  /**
   * The organisation's OpenID Connect provider, for users whose method is `oidc`: its access tokens are taken
   * as bearer tokens, and with a redirect URL the console signs users in through it.
   */
  readonly oidc?: OidcSettings
  readonly logger?: Logger
  /** PDF converter for stored originals; null disables conversion (default: in-process only, no LibreOffice). */
  readonly converter?: PdfConverter | null
  /** Watermark and read settings of the content reads. */
  readonly content?: Partial<ContentSettings>
  /** Search settings: an operator's ceiling on the records one search returns (none by default). */
  readonly search?: Partial<SearchSettings>
  /** Timing of the journal's background sealing (tests turn the sweep off with `sweepIntervalMs: 0`). */
  readonly journal?: Pick<JournalWriterOptions, 'sealDelayMs' | 'sweepIntervalMs'>
  /** Told of refused authentications (metrics); nothing by default. Conversions report through `converter`'s own observer. */
  readonly observer?: AuthObserver
  /**
   * Full-text search (docs/settings.md, MAILROOM_FULLTEXT_*): the language, this server's background
   * extraction workers (1 by default; 0 leaves the queue to other servers) and the queue's lease and retries.
   * `extractor` replaces pdftotext and Tesseract (tests, or another engine). `index` replaces the database's
   * own full-text index by a search engine's (docs/architecture.md): each extracted text is put in it, and a
   * search takes up to `candidates` files per words from it (10,000 by default), then keeps those the caller's
   * perimeter and clause allow, in the database.
   */
  readonly fulltext?: Partial<FullTextSettings> & {
    readonly extractor?: TextExtractor
    readonly index?: FullTextIndex
    readonly candidates?: number
    readonly observer?: FullTextObserver
    /** Names this server in the queue's rows (default: host name and process id). */
    readonly serverName?: string
  }
}

/** Mailroom's use cases wired over PostgreSQL/PGlite and the file system, usable without any HTTP layer. */
export interface Mailroom extends MailroomServices {
  readonly database: MailroomDatabase
  readonly db: Kysely<Database>
  /** Where the documents are kept (a folder or a bucket). */
  readonly documentStore: DocumentStore
  /** Organisation and user administration: export, plan and apply documents; add, enable, disable users, set passwords. */
  readonly organisation: OrganisationAdmin
  /** Loads the demo dataset if the database has no user yet; true when it loaded. */
  loadDemo(): Promise<boolean>
  /** The user (login or integer id) as an Actor, for calling use cases on their behalf. */
  actor(user: string | number): Promise<Actor>
  /** Every use case bound to a user (login or integer id): `(await mailroom.as('bbain')).records.create(body)`. */
  as(user: string | number): Promise<ActingMailroom>
  /** Readings for metrics: the PostgreSQL pool, the journal's unsealed backlog, the files stored (one query). */
  statistics(): Promise<OperationalStatistics>
  /** Links every committed digital-safe journal event into its chain now (normally done in the background). */
  journalFlush(): Promise<void>
  /** The full-text queue: status, reindex, and extraction now (drain). */
  readonly fulltext: FullTextServices
  close(): Promise<void>
}

/**
 * Opens the database, applies migrations and wires every use case.
 *
 * @example
 * ```ts
 * import { createMailroom } from '@mailroom/mailroom'
 *
 * const mailroom = await createMailroom({
 *   database: process.env.DATABASE_URL ?? './data/pglite', // or a pg.Pool, or a kysely instance you own
 *   docserverDir: './data/docservers',
 *   secret: process.env.MAILROOM_SECRET ?? 'change me',
 * })
 * const clerk = await mailroom.as('bbain') // every use case bound to a user
 * const { resId } = await clerk.records.create({ modelId: 1, status: 'NEW', format: 'txt', encodedFile: 'Qm9uam91cg==' })
 * const { resources } = await clerk.search.list({ select: 'res_id,status', clause: `res_id = ${resId}` })
 * console.log(resources)
 * await mailroom.close()
 * ```
 */
export async function createMailroom(options: MailroomOptions): Promise<Mailroom> {
  const { database, ownsDatabase } = await resolveDatabase(options.database)
  let journal: JournalWriter | undefined
  let store: { store: DocumentStore; owned: boolean } | undefined
  let fulltext: FullTextServices | undefined
  try {
    const hasher = options.passwordHasher ?? new ScryptPasswordHasher()
    const logger = options.logger ?? SILENT_LOGGER
    // Replicas started together: one migrates and loads the demo, the others wait and find it done.
    const onWait = () =>
      logger.info({}, 'another server is starting on this database: waiting for its migrations and demo load')
    const startupWrites = <T>(work: (db: Kysely<Database>) => Promise<T>) => withStartupLock(database, work, { onWait })
    await startupWrites(async (db) => {
      if (options.migrate !== false) await migrateToLatest(db)
      if (options.demo) await loadDemoData(db, hasher)
    })
    const clock = options.clock ?? { now: () => new Date() }
    store = documentStoreFor(options)
    const docservers = store.store
    await docservers.ensure()
    const digestKey = randomBytes(32)
    const entityRepository = new KyselyEntityRepository(database.db)
    const perimeter = new PerimeterGuard(options.logger ?? SILENT_LOGGER)
    // The perimeter keeps the entity tree a few seconds: a change seen by authentication drops it at once.
    const users = new KyselyUserRepository(database.db, { onAccessChange: () => perimeter.invalidate() })
    const identityProvider = options.oidc ? createOidcIdentityProvider(options.oidc) : undefined
    const auth = createAuthService({
      users,
      hasher,
      tokens: new HmacTokenSigner(options.secret, options.previousSecrets),
      clock,
      ids: { newId: () => randomUUID() },
      ...(options.throttle === false
        ? {}
        : { throttle: new KyselyAuthThrottle(database.db), throttlePolicy: options.throttle ?? {} }),
      credentialDigest: (login, password) =>
        createHmac('sha256', digestKey).update(login).update('\0').update(password).digest('base64'),
      ...(options.auth ? { settings: options.auth } : {}),
      ...(options.observer ? { observer: options.observer } : {}),
      ...(options.directory === undefined ? {} : { directory: directoryOf(options.directory) }),
      ...(identityProvider ? { identityProvider } : {}),
    })
    journal = new JournalWriter({ ...options.journal, clock, db: database.db, logger: options.logger ?? SILENT_LOGGER })
    const context: StorageContext = {
      db: database.db,
      kind: database.kind,
      docservers,
      clock,
      ids: { newId: () => randomUUID() },
      logger: options.logger ?? SILENT_LOGGER,
      converter: options.converter === undefined ? new ConversionService() : options.converter,
      sniffer: mimeTypeSniffer,
      watermarker: pdfWatermarker,
      chronoMerger: officeChronoMerger,
      perimeter,
      journal,
    }
    // Each capability: core's use cases over storage's ports (docs/architecture.md, "Use cases and ports").
    const contentStores = contentPorts(context, options.content)
    const content = createContentUseCases(contentStores)
    const {
      extractor,
      index: fullTextIndex,
      candidates: fullTextCandidates,
      ...fullTextOptions
    } = options.fulltext ?? {}
    const indexOptions = {
      ...(fullTextIndex ? { fullTextIndex } : {}),
      ...(fullTextCandidates === undefined ? {} : { fullTextCandidates }),
    }
    const fullTextLanguage = fullTextOptions.language ?? DEFAULT_FULLTEXT_SETTINGS.language
    fulltext = createFullTextServices(
      context,
      extractor ??
        new CommandLineTextExtractor({
          language: fullTextLanguage,
          ...(context.converter ? { converter: context.converter } : {}),
        }),
      {
        serverName: `${hostname()}:${process.pid}`,
        ...fullTextOptions,
        ...(fullTextIndex ? { index: fullTextIndex } : {}),
      },
    )
    const mailroom: Mailroom = {
      database,
      db: database.db,
      documentStore: docservers,
      auth,
      entities: { read: (actor, id) => readEntity(entityRepository, actor, id) },
      contacts: createContactsServices(new KyselyContactRepository(database.db)),
      records: wakingFullText(createRecordsUseCases(recordsPorts(context)), fulltext),
      attachments: createAttachmentUseCases(attachmentPorts(context, contentStores.readPorts)),
      search: createSearchUseCases(searchPorts(context, { fullTextLanguage, ...indexOptions, ...options.search })),
      criteriaSearch: createCriteriaSearchUseCases(criteriaSearchPorts(context, { fullTextLanguage, ...indexOptions })),
      content,
      status: createStatusUseCases(statusPorts(context)),
      reference: createReferenceUseCases(referencePorts(database.db), {
        passwordMinLength: options.passwordPolicy?.minLength ?? DEFAULT_PASSWORD_POLICY.minLength,
      }),
      notes: createNotesUseCases(notesPorts(context)),
      links: createLinksUseCases(linksPorts(context)),
      letterPage: createLetterPageUseCases(letterPagePorts(context)),
      diffusionList: createDiffusionListUseCases(diffusionListPorts(context)),
      journal: createJournalUseCases(journalPorts(context)),
      baskets: createBasketsUseCases(basketsPorts(context)),
      actions: createActionsUseCases(actionsPorts(context)),
      processingPage: createProcessingPageUseCases(processingPagePorts(context)),
      listTemplates: createListTemplateUseCases(listTemplatePorts(context)),
      sessionShell: createSessionShell(referencePorts(database.db).parameters, {
        instanceId: instanceIdOf(options.secret),
        applicationName: 'Mailroom',
        language: 'fr',
        passwordMinLength: options.passwordPolicy?.minLength ?? DEFAULT_PASSWORD_POLICY.minLength,
      }),
      organisation: createOrganisationAdmin({
        db: database.db,
        hasher,
        onChange: () => perimeter.invalidate(),
        ...(options.passwordPolicy ? { passwordPolicy: options.passwordPolicy } : {}),
      }),
      ...(identityProvider?.consoleSignIn
        ? { consoleSignIn: createConsoleSignIn({ provider: identityProvider, auth, secret: options.secret, clock }) }
        : {}),
      loadDemo: () => startupWrites((db) => loadDemoData(db, hasher)),
      actor: (user) => actorOf(users, user),
      as: async (user) => actAs(mailroom, await actorOf(users, user)),
      async health() {
        const [schema, storage] = await Promise.all([
          // A database that does not answer cannot have its migrations checked either: both fail.
          database.ping().then(
            async () => ({
              database: true,
              migrations: (await pendingMigrations(database.db).catch(() => ['unknown'])).length === 0,
            }),
            () => ({ database: false, migrations: false }),
          ),
          docservers.acceptsWrites(),
        ])
        return { ...schema, storage }
      },
      statistics: () => readOperationalStatistics(database),
      async fullTextBacklog() {
        const { pending, running, failed, oldestPendingSeconds } = await fulltext!.status(0)
        return { pending, running, failed, oldestPendingSeconds }
      },
      journalFlush: () => context.journal.flush(),
      fulltext,
      async close() {
        await fulltext?.stop()
        await contentStores.close()
        await context.journal.close()
        if (store?.owned) await docservers.close()
        if (ownsDatabase) await database.close()
      },
    }
    return mailroom
  } catch (error) {
    // Stop the journal's background sealing and the extraction before closing what they would use.
    await fulltext?.stop().catch(() => {})
    await journal?.close().catch(() => {})
    if (store?.owned) await store.store.close().catch(() => {})
    if (ownsDatabase) await database.close().catch(() => {})
    throw error
  }
}

async function resolveDatabase(
  input: MailroomOptions['database'],
): Promise<{ database: MailroomDatabase; ownsDatabase: boolean }> {
  if (typeof input === 'string') return { database: await openDatabase(targetFromString(input)), ownsDatabase: true }
  if (input instanceof Kysely) return { database: databaseFromKysely(input), ownsDatabase: false }
  if ('db' in input && 'ping' in input) return { database: input, ownsDatabase: false }
  if ('kind' in input) return { database: await openDatabase(input), ownsDatabase: true }
  return { database: databaseFromPool(input), ownsDatabase: false }
}

async function actorOf(users: KyselyUserRepository, user: string | number): Promise<Actor> {
  const id = typeof user === 'number' ? user : (await users.findCredentialsByLogin(user))?.id
  const actor = id === undefined ? null : await users.loadActor(id)
  return actor ?? fail('AUTHENTICATION_FAILED')
}

/** The authenticator of the `directory` option: given, or built from LDAP settings. */
function directoryOf(directory: LdapDirectorySettings | DirectoryAuthenticator): DirectoryAuthenticator {
  return 'checkPassword' in directory ? directory : createLdapDirectory(directory)
}

/** The records use cases, each create also waking this server's extraction (it need not wait for its next look). */
function wakingFullText(records: MailroomServices['records'], fulltext: FullTextServices): MailroomServices['records'] {
  return {
    async create(actor, body) {
      const created = await records.create(actor, body)
      fulltext.wake()
      return created
    },
  }
}

/**
 * The installation's id for 20.10's web client (it keys its localStorage by it): a hash of the secret under a
 * label of its own, stable across restarts and servers sharing the secret, and telling nothing about the secret.
 */
function instanceIdOf(secret: string): string {
  return createHash('sha256').update(`mailroom-web-client-instance:${secret}`).digest('hex').slice(0, 32)
}

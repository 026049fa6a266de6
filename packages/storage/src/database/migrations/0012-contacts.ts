import { type Kysely, sql } from 'kysely'

/**
 * Contacts with every column of Maarch Courrier 20.10's `contacts` table, so `GET /rest/contacts/{id}`
 * answers what 20.10 answers and `import maarch` carries every field. Text columns are varchar(256) as in
 * 20.10 (the use cases refuse longer values with a 400 before the database sees them); the five columns of
 * 0001 grow from 255 to 256 characters to match.
 * `creation_date` is not null with a default, as in 20.10; existing rows get the moment of the migration.
 */
const TEXT_COLUMNS = [
  'department',
  'function',
  'address_number',
  'address_street',
  'address_additional1',
  'address_additional2',
  'address_postcode',
  'address_town',
  'address_country',
  'phone',
] as const

const UP = [
  ...['civility', 'firstname', 'lastname', 'company', 'email'].map(
    (column) => `alter table contacts alter column ${column} type varchar(256)`,
  ),
  ...TEXT_COLUMNS.map((column) => `alter table contacts add column ${column} varchar(256)`),
  `alter table contacts add column communication_means jsonb`,
  `alter table contacts add column notes text`,
  `alter table contacts add column creator integer`,
  `alter table contacts add column creation_date timestamptz not null default now()`,
  `alter table contacts add column modification_date timestamptz`,
  `alter table contacts add column custom_fields jsonb`,
  `alter table contacts add column external_id jsonb not null default '{}'::jsonb`,
  // getContactByMail / getContactByPhone and the duplicate-mail check look contacts up by these.
  `create index contacts_email_lower on contacts (lower(email))`,
  `create index contacts_phone on contacts (phone)`,
]

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of UP) await sql.raw(statement).execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql.raw('drop index contacts_phone').execute(db)
  await sql.raw('drop index contacts_email_lower').execute(db)
  for (const column of [
    ...TEXT_COLUMNS,
    'communication_means',
    'notes',
    'creator',
    'creation_date',
    'modification_date',
    'custom_fields',
    'external_id',
  ])
    await sql.raw(`alter table contacts drop column ${column}`).execute(db)
}

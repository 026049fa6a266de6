import { type Kysely, sql } from 'kysely'

/**
 * How each user signs in (docs/directory-sign-in.md): `standard` (the stored password hash), `ldap` (the
 * organisation's directory checks the password by a bind) or `oidc` (an OpenID Connect provider). Users who
 * existed before keep their passwords.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table users add column authentication varchar(16) not null default 'standard'
    check (authentication in ('standard', 'ldap', 'oidc'))`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table users drop column authentication`.execute(db)
}

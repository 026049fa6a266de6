import type { PasswordHasher } from '@mailroom/core'
import { type Kysely, sql } from 'kysely'
import type { Database } from '../database/schema.js'

/** The demo organisation of runtime-contract.md, exactly: ids, logins, passwords, clauses. */
export const DEMO_ENTITIES = [
  { id: 1, entity_id: 'VILLE', entity_label: 'Ville de Maarch-les-Bains', short_label: 'Ville', entity_type: 'Direction', parent_entity_id: null },
  { id: 2, entity_id: 'CAB', entity_label: 'Cabinet du Maire', short_label: 'Cabinet', entity_type: 'Direction', parent_entity_id: 'VILLE' },
  { id: 3, entity_id: 'DGS', entity_label: 'Direction Générale des Services', short_label: 'DGS', entity_type: 'Direction', parent_entity_id: 'VILLE' },
  { id: 4, entity_id: 'DRH', entity_label: 'Direction des Ressources Humaines', short_label: 'DRH', entity_type: 'Service', parent_entity_id: 'DGS' },
  { id: 5, entity_id: 'DSI', entity_label: "Direction des Systèmes d'Information", short_label: 'DSI', entity_type: 'Service', parent_entity_id: 'DGS' },
  { id: 6, entity_id: 'PJS', entity_label: 'Pôle Jeunesse et Sport', short_label: 'PJS', entity_type: 'Service', parent_entity_id: 'DGS' },
  { id: 7, entity_id: 'PE', entity_label: 'Petite Enfance', short_label: 'PE', entity_type: 'Bureau', parent_entity_id: 'PJS' },
  { id: 8, entity_id: 'COU', entity_label: 'Service Courrier', short_label: 'Courrier', entity_type: 'Service', parent_entity_id: 'VILLE' },
] as const

/** Demo users; passwords are demo-only. */
export const DEMO_USERS = [
  { id: 1, login: 'superadmin', password: 'superadmin', mode: 'root_visible', firstname: 'Super', lastname: 'ADMIN', primary: 'VILLE', others: [], groups: ['ADMIN'] },
  { id: 2, login: 'cchaplin', password: 'maarch', mode: 'rest', firstname: 'Charlie', lastname: 'CHAPLIN', primary: 'VILLE', others: [], groups: ['WEBSERVICE'] },
  { id: 3, login: 'bbain', password: 'maarch', mode: 'standard', firstname: 'Barbara', lastname: 'BAIN', primary: 'PJS', others: [], groups: ['AGENT'] },
  { id: 4, login: 'bblier', password: 'maarch', mode: 'standard', firstname: 'Bernard', lastname: 'BLIER', primary: 'DGS', others: [], groups: ['RESPONSABLE'] },
  { id: 5, login: 'ppetit', password: 'maarch', mode: 'standard', firstname: 'Patricia', lastname: 'PETIT', primary: 'COU', others: ['CAB'], groups: ['COURRIER'] },
  { id: 6, login: 'ddur', password: 'maarch', mode: 'standard', firstname: 'Dominique', lastname: 'DUR', primary: 'DRH', others: [], groups: ['CONSULT'] },
] as const

const ENTITY_SCOPED = 'destination in (@my_entities, @subentities[@my_primary_entity])'

/** Demo groups with their "can index" flag, security clause and indexing keywords. */
export const DEMO_GROUPS = [
  { id: 1, group_id: 'ADMIN', desc: 'Administrateur', can_index: true, clause: '1=1', keywords: ['ALL_ENTITIES'] },
  { id: 2, group_id: 'WEBSERVICE', desc: 'Utilisateurs de WebService', can_index: true, clause: '1=1', keywords: ['ALL_ENTITIES'] },
  { id: 3, group_id: 'COURRIER', desc: 'Opérateur de numérisation', can_index: true, clause: '1=1', keywords: ['ALL_ENTITIES'] },
  { id: 4, group_id: 'AGENT', desc: 'Utilisateur', can_index: true, clause: ENTITY_SCOPED, keywords: ['MY_ENTITIES', 'ALL_ENTITIES_BELOW'] },
  { id: 5, group_id: 'RESPONSABLE', desc: 'Manager', can_index: true, clause: ENTITY_SCOPED, keywords: ['MY_ENTITIES', 'ALL_ENTITIES_BELOW'] },
  { id: 6, group_id: 'CONSULT', desc: 'Consultation', can_index: false, clause: '1=0', keywords: [] },
] as const

export const DEMO_STATUSES = [
  ['NEW', 'Nouveau courrier', false], ['INIT', 'Initialisé', false], ['COU', 'En cours', false], ['VAL', 'À valider', false],
  ['EVIS', 'En visa', false], ['ATT', 'En attente', false], ['END', 'Clos', true], ['DEL', 'Supprimé', false],
] as const

export const DEMO_DOCTYPES = [
  [101, 'Abonnements'], [102, 'Convocation'], [103, 'Demande de documents'], [104, 'Demande de fournitures'], [105, 'Réclamation'],
] as const

export const DEMO_INDEXING_MODELS = [
  [1, 'Courrier arrivée', 'incoming'], [2, 'Courrier départ', 'outgoing'], [3, 'Note interne', 'internal'], [4, 'Document GED', 'ged_doc'],
] as const

export const DEMO_PRIORITIES = [
  ['poiuytre1357nbvc', 'Normal', 30, '#009dc5'], ['poiuytre1379nbvc', 'Urgent', 8, '#ffa500'], ['poiuytre1391nbvc', 'Très urgent', 4, '#ff0000'],
] as const

/** True when the demo dataset (or any user) is already there. */
export async function hasUsers(db: Kysely<Database>): Promise<boolean> {
  const row = await db.selectFrom('users').select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow()
  return row.n > 0
}

/**
 * Loads the demo dataset in one transaction. Does nothing (returns false) when users already exist,
 * so `mailroom demo` can be re-run safely.
 */
export async function loadDemoData(db: Kysely<Database>, hasher: PasswordHasher): Promise<boolean> {
  if (await hasUsers(db)) return false
  const hashes = await Promise.all(DEMO_USERS.map((u) => hasher.hash(u.password)))
  await db.transaction().execute(async (trx) => {
    for (const e of DEMO_ENTITIES) {
      const top = e.entity_id === 'VILLE'
      await trx
        .insertInto('entities')
        .values({
          ...e,
          enabled: 'Y',
          adrs_1: null, adrs_2: null, adrs_3: null, ldap_id: null, archival_agency: null, archival_agreement: null,
          producer_service: null, entity_full_name: null,
          business_id: top ? '21750001600019' : null,
          city: top ? 'Maarch-les-Bains' : null,
          zipcode: top ? '99000' : null,
          country: top ? 'France' : null,
          email: top ? 'mairie@maarch-les-bains.fr' : null,
        })
        .execute()
    }
    for (const [i, u] of DEMO_USERS.entries()) {
      await trx
        .insertInto('users')
        .values({ id: u.id, user_id: u.login, firstname: u.firstname, lastname: u.lastname, mail: `${u.login}@maarch-les-bains.fr`, password: hashes[i]!, mode: u.mode, status: 'OK', locked_until: null, service_token_id: null })
        .execute()
      await trx.insertInto('users_entities').values({ user_id: u.id, entity_id: u.primary, user_role: null, primary_entity: 'Y' }).execute()
      for (const other of u.others) await trx.insertInto('users_entities').values({ user_id: u.id, entity_id: other, user_role: null, primary_entity: 'N' }).execute()
    }
    for (const g of DEMO_GROUPS) {
      await trx
        .insertInto('usergroups')
        .values({ id: g.id, group_id: g.group_id, group_desc: g.desc, can_index: g.can_index, indexation_parameters: JSON.stringify({ actions: [], entities: [], keywords: g.keywords }) })
        .execute()
      await trx.insertInto('security').values({ group_id: g.group_id, where_clause: g.clause, maarch_comment: null }).execute()
    }
    for (const u of DEMO_USERS) {
      for (const groupId of u.groups) {
        const g = DEMO_GROUPS.find((x) => x.group_id === groupId)!
        await trx.insertInto('usergroup_content').values({ user_id: u.id, group_id: g.id, role: null }).execute()
      }
    }
    for (const [id, label, closing] of DEMO_STATUSES) {
      await trx.insertInto('status').values({ id, label_status: label, is_closing: closing, img_filename: null }).execute()
    }
    await trx.insertInto('doctypes_first_level').values({ doctypes_first_level_id: 1, doctypes_first_level_label: 'Courriers', css_style: '#000000' }).execute()
    await trx.insertInto('doctypes_second_level').values({ doctypes_second_level_id: 1, doctypes_second_level_label: 'Demandes', doctypes_first_level_id: 1, css_style: '#000000' }).execute()
    for (const [type_id, description] of DEMO_DOCTYPES) {
      await trx.insertInto('doctypes').values({ type_id, description, doctypes_first_level_id: 1, doctypes_second_level_id: 1 }).execute()
    }
    for (const [id, label, category] of DEMO_INDEXING_MODELS) {
      await trx.insertInto('indexing_models').values({ id, label, category, owner: null, master: null }).execute()
    }
    for (const [index, [id, label, delays, color]] of DEMO_PRIORITIES.entries()) {
      await trx.insertInto('priorities').values({ id, label, delays, color, order: index + 1 }).execute()
    }
    for (const [id, firstname, lastname, company] of [
      [1, 'Jean', 'Dupont', null], [2, null, null, 'Société Alpha'], [3, 'Marie', 'Curie', null],
    ] as const) {
      await trx.insertInto('contacts').values({ id, firstname, lastname, company, civility: null, email: null }).execute()
    }
    await trx.insertInto('folders').values({ id: 1, label: 'Dossiers sensibles', user_id: 4, parent_id: null }).execute()
    await trx.insertInto('folders').values({ id: 2, label: 'Marchés publics', public: true, user_id: 1, parent_id: null }).execute()
    await trx.insertInto('entities_folders').values({ folder_id: 2, entity_id: null, keyword: 'ALL_ENTITIES' }).execute()
    for (const [id, label] of [[1, 'SEMINAIRE'], [2, 'INNOVATION'], [3, 'URGENT']] as const) {
      await trx.insertInto('tags').values({ id, label }).execute()
    }
    await trx.insertInto('custom_fields').values({ id: 1, label: 'Référence externe', type: 'string' }).execute()
    await trx.insertInto('custom_fields').values({ id: 2, label: 'Date de réception accusée', type: 'date' }).execute()
    await trx.insertInto('custom_fields').values({ id: 3, label: 'Canal', type: 'select', values: JSON.stringify(['Courrier', 'Mail', 'Fax']) }).execute()
    // Explicit ids were inserted: move each serial past them so later inserts do not collide.
    for (const [table, column] of [
      ['entities', 'id'], ['users', 'id'], ['usergroups', 'id'], ['doctypes_first_level', 'doctypes_first_level_id'],
      ['doctypes_second_level', 'doctypes_second_level_id'], ['doctypes', 'type_id'], ['indexing_models', 'id'],
      ['contacts', 'id'], ['folders', 'id'], ['tags', 'id'], ['custom_fields', 'id'],
    ] as const) {
      await sql`select setval(pg_get_serial_sequence(${table}, ${column}), (select max(${sql.ref(column)}) from ${sql.table(table)}))`.execute(trx)
    }
  })
  return true
}

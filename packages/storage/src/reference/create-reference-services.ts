import {
  createReferenceUseCases,
  createSessionShell,
  type ProfileSettings,
  type ReferenceServices,
  type SessionShellServices,
  type SessionShellSettings,
} from '@mailroom/core'
import type { Kysely } from 'kysely'
import { kyselyCustomFieldRepository } from '../custom-fields/kysely-custom-field-repository.js'
import type { Database } from '../database/schema.js'
import { KyselyDoctypeRepository } from '../doctypes/kysely-doctype-repository.js'
import { KyselyEntityRepository } from '../entities/kysely-entity-repository.js'
import { KyselyFolderRepository } from '../folders/kysely-folder-repository.js'
import { KyselyIndexingModelRepository } from '../indexing-models/kysely-indexing-model-repository.js'
import { KyselyParameterRepository } from '../parameters/kysely-parameter-repository.js'
import { kyselyPriorityRepository } from '../priorities/kysely-priority-repository.js'
import { kyselyStatusRepository } from '../statuses/kysely-status-repository.js'
import { kyselyTagRepository } from '../tags/kysely-tag-repository.js'
import { KyselyUserDirectory } from '../users/kysely-user-directory.js'

/** Wires the reference-data reads (GET /rest/entities, /doctypes, …, /parameters, /currentUser/profile) over kysely. */
export function createReferenceServices(db: Kysely<Database>, settings: ProfileSettings): ReferenceServices {
  return createReferenceUseCases(
    {
      entities: new KyselyEntityRepository(db),
      doctypes: new KyselyDoctypeRepository(db),
      statuses: kyselyStatusRepository(db),
      priorities: kyselyPriorityRepository(db),
      indexingModels: new KyselyIndexingModelRepository(db),
      customFields: kyselyCustomFieldRepository(db),
      tags: kyselyTagRepository(db),
      folders: new KyselyFolderRepository(db),
      users: new KyselyUserDirectory(db),
      parameters: new KyselyParameterRepository(db),
    },
    settings,
  )
}

/** Wires the answers around a web client's session (GET /rest/authenticationInformations, …) over kysely. */
export function createSessionShellServices(db: Kysely<Database>, settings: SessionShellSettings): SessionShellServices {
  return createSessionShell(new KyselyParameterRepository(db), settings)
}

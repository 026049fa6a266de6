import type { ListTemplateDependencies } from '@mailroom/core'
import { KyselyEntityRepository } from '../entities/kysely-entity-repository.js'
import { KyselyParameterRepository } from '../parameters/kysely-parameter-repository.js'
import type { StorageContext } from '../storage-context.js'
import { kyselyListTemplateStore } from './kysely-list-template-store.js'

/** The ports of core's diffusion list templates and roles reads over kysely. */
export function listTemplatePorts(context: Pick<StorageContext, 'db'>): ListTemplateDependencies {
  return {
    listTemplates: kyselyListTemplateStore(context.db),
    entities: new KyselyEntityRepository(context.db),
    parameters: new KyselyParameterRepository(context.db),
  }
}

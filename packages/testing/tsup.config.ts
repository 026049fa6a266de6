import { mailroomTsupConfig } from '../../tsup.shared.ts'

export default mailroomTsupConfig([
  'src/index.ts',
  // Its own entry: scripts/bootstrap.mjs removes a test run's demo templates without loading the whole kit.
  'src/databases/demo-templates-setup.ts',
])

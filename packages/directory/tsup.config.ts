import { mailroomTsupConfig } from '../../tsup.shared.ts'

export default mailroomTsupConfig(['src/index.ts'])

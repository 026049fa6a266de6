import { mailroomVitestConfig } from '../../vitest.shared.ts'

// One browser and one server for the whole browser suite: the end-to-end files run in one worker, in order.
export default mailroomVitestConfig()

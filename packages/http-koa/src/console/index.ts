export { CONSOLE_PATH, serveConsole } from './serve-console.js'

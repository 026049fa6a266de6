export { escapeHtml, safeHtml } from './safe-html.js'
export { createSessionShell, type SessionShellServices, type SessionShellSettings } from './session-shell.js'

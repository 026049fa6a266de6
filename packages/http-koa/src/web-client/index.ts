export { answerMaarchRoutesNotServed, maarchRouteOf } from './routes-not-served.js'
export { serveWebClient, WEB_CLIENT_PATH } from './serve-web-client.js'
export { type ImageFile, readImage, readLanguage, type WebClientFolders } from './web-client-files.js'

export { PerimeterGuard } from './perimeter-guard.js'

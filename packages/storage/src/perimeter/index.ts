export { PerimeterGuard, type PerimeterShape } from './perimeter-guard.js'

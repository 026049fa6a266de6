export { basketClauseCondition, perimeterBaskets } from './basket-perimeter.js'
export { PerimeterGuard, type PerimeterShape } from './perimeter-guard.js'

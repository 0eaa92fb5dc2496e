// The fake GitHub, now simulator/github/ (index.ts); this path stays until its importers move.
export * from './github/index.js'

// The public surface of the refactoring module (OpenTofu's internal/refactoring, the `moved`
// half): move statements from the configuration and implied by it, applying them to a state,
// validating them after planning. See README.md.
export { findMoveStatements, statementName, statementObjectKind, type MoveStatement } from "./statement.js";
export { impliedMoveStatements } from "./implied.js";
export { applyMoves } from "./execute.js";
export { MoveResults, blockedMovesWarning, type MoveSuccess, type MoveBlocked } from "./results.js";
export { validateMoves, rangeStartString } from "./validate.js";
export { InstanceSet, type DeclaredInstances } from "./instances.js";
export { findProviderMoves, type ProviderMove } from "./providermoves.js";
export { checkTargetedMoves } from "./targeting.js";
export { prepareMoves, finishMoves, type PreparedMoves, type PrepareOptions, type FinishedMoves } from "./prepare.js";

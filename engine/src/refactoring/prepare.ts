// The two calls Context.plan makes (OpenTofu's prePlanFindAndApplyMoves,
// prePlanVerifyTargetedMoves and postPlanValidateMoves): prepareMoves before the plan walk, on
// the previous run state, and finishMoves after it, once the expander knows what the
// configuration declares.
import type { Targetable } from "../addrs/index.js";
import type { Config } from "../configs/index.js";
import { hasErrors, type Diagnostic } from "../hcl/index.js";
import type { State } from "../states/model.js";
import { applyMoves } from "./execute.js";
import { impliedMoveStatements } from "./implied.js";
import type { DeclaredInstances } from "./instances.js";
import { findProviderMoves, type ProviderMove } from "./providermoves.js";
import { blockedMovesWarning, type MoveResults } from "./results.js";
import { findMoveStatements, type MoveStatement } from "./statement.js";
import { checkTargetedMoves } from "./targeting.js";
import { validateMoves } from "./validate.js";

export interface PreparedMoves {
  /** A copy of the previous run state with every move applied: the walk's previous run state. */
  readonly state: State;
  /** Explicit statements first, then implied ones. */
  readonly statements: readonly MoveStatement[];
  /** New address → previous-run address (the changes' prevRunAddr), and blocked moves. */
  readonly results: MoveResults;
  /** Objects whose type or provider an explicit move changed: read them with MoveResourceState. */
  readonly providerMoves: readonly ProviderMove[];
  /** Errors here (targeting that leaves out a move) mean: stop, there is no plan. */
  readonly diagnostics: Diagnostic[];
}

export interface PrepareOptions {
  readonly targets?: readonly Targetable[];
  readonly excludes?: readonly Targetable[];
}

export function prepareMoves(config: Config, prevRunState: State, opts: PrepareOptions = {}): PreparedMoves {
  const state = prevRunState.deepCopy();
  const explicit = findMoveStatements(config);
  const statements = [...explicit.statements, ...impliedMoveStatements(config, state, explicit.statements)];
  const results = applyMoves(statements, state);
  const diagnostics = [...explicit.diagnostics, ...checkTargetedMoves(results, opts.targets ?? [], opts.excludes ?? [])];
  return { state, statements, results, providerMoves: findProviderMoves(results, prevRunState, config), diagnostics };
}

export interface FinishedMoves {
  /**
   * True when the statements are invalid: OpenTofu then returns no plan and only these
   * diagnostics, since a broken move graph is the likely cause of any other error.
   */
  readonly invalid: boolean;
  /** To append to the plan's diagnostics (or, when invalid, to return instead of them). */
  readonly diagnostics: Diagnostic[];
}

/**
 * After the plan walk: validate the statements against what the configuration declares and, if
 * the plan has no errors, warn about blocked moves.
 */
export function finishMoves(prepared: PreparedMoves, config: Config, declared: DeclaredInstances, planDiagnostics: readonly Diagnostic[]): FinishedMoves {
  const validation = validateMoves(prepared.statements, config, declared);
  if (hasErrors(validation)) return { invalid: true, diagnostics: validation };
  const diagnostics = [...validation];
  const blocked = blockedMovesWarning(prepared.results);
  if (blocked && !hasErrors(planDiagnostics) && !hasErrors(diagnostics)) diagnostics.push(blocked);
  return { invalid: false, diagnostics };
}

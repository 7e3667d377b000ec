// Moves that need the provider's help (case 044): an explicit `moved` block that changes the
// resource type, or the provider, of an object. For those the core must call MoveResourceState
// on the provider of the *target* resource (after configuring it) instead of
// UpgradeResourceState, and conform the result to the target schema. Implied moves (count added
// or removed) never qualify, even when the provider changed: those objects are only upgraded.
import { compareProviders, type AbsProviderConfig, type AbsResourceInstance, type Provider } from "../addrs/index.js";
import { descendent, type Config } from "../configs/index.js";
import type { State } from "../states/model.js";
import type { MoveResults } from "./results.js";

export interface ProviderMove {
  /** Where the object is now. */
  readonly addr: AbsResourceInstance;
  /** Where it was in the previous run. */
  readonly prevRunAddr: AbsResourceInstance;
  readonly sourceTypeName: string;
  readonly targetTypeName: string;
  /** The provider configuration the previous run state recorded for the source resource. */
  readonly sourceProvider: AbsProviderConfig | undefined;
  /** The provider the configuration now gives the target resource (undefined without config). */
  readonly targetProvider: Provider | undefined;
  /**
   * OpenTofu sends MoveResourceStateRequest.SourceProviderAddress as the provider local name the
   * source type implies (`test` for `test_object0`), not the full source address.
   */
  readonly sourceProviderAddress: string;
}

/**
 * The provider moves among the results of applyMoves. `prevRunState` is the state *before* the
 * moves (what the previous run recorded); managed resources only, since only they have state
 * a provider could translate.
 */
export function findProviderMoves(results: MoveResults, prevRunState: State, config: Config): ProviderMove[] {
  const out: ProviderMove[] = [];
  for (const change of results.changes.values()) {
    if (change.implied) continue;
    const from = change.from.resource.resource;
    const to = change.to.resource.resource;
    if (from.mode !== "managed" || to.mode !== "managed") continue;
    const sourceProvider = prevRunState.resource(change.from.containingResource())?.providerConfig;
    const targetProvider = descendent(config, change.to.module.module().steps)?.module.managedResources.get(to.toString())?.provider;
    const typeChanged = from.type !== to.type;
    const providerChanged = sourceProvider !== undefined && targetProvider !== undefined && compareProviders(sourceProvider.provider, targetProvider) !== 0;
    if (!typeChanged && !providerChanged) continue;
    out.push({
      addr: change.to,
      prevRunAddr: change.from,
      sourceTypeName: from.type,
      targetTypeName: to.type,
      sourceProvider,
      targetProvider,
      sourceProviderAddress: from.impliedProvider(),
    });
  }
  return out;
}

// Entry point of terraform-provider-sim.
import { servePlugin } from "../../sdk/index.js";
import { simProvider } from "./provider.js";

// Not awaited: the executable runs this as a CommonJS bundle (bin/bundle.cjs), where top-level
// await does not exist. servePlugin reports its own failures and exits.
void servePlugin(simProvider, { address: "registry.opentofu.org/terrace/sim" });

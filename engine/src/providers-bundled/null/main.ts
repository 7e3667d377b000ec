// Entry point of terraform-provider-null.
import { servePlugin } from "../../sdk/index.js";
import { nullProvider } from "./provider.js";

// Not awaited: the executable runs this as a CommonJS bundle (bin/bundle.cjs), where top-level
// await does not exist. servePlugin reports its own failures and exits.
void servePlugin(nullProvider, { address: "registry.opentofu.org/hashicorp/null" });

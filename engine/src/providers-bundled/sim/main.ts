// Entry point of terraform-provider-sim.
import { servePlugin } from "../../sdk/index.js";
import { simProvider } from "./provider.js";

await servePlugin(simProvider);

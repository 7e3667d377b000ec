// Entry point of terraform-provider-random.
import { servePlugin } from "../../sdk/index.js";
import { randomProvider } from "./provider.js";

await servePlugin(randomProvider);

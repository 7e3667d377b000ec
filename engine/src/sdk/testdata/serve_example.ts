// Entry point serving the SDK's test provider as a real plugin process, for tests that need it
// behind the CLI: run with `node --import tsx serve_example.ts` (dev_overrides pointing at a
// script that does so).
import { servePlugin } from "../serve.js";
import { thingProvider } from "./provider.js";

void servePlugin(thingProvider());

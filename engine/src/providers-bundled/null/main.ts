// Entry point of terraform-provider-null.
import { servePlugin } from "../../sdk/index.js";
import { nullProvider } from "./provider.js";

await servePlugin(nullProvider);

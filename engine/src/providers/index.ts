// The public surface of the providers module. Each part adds its exports here.
export * from "./install/index.js";
export * from "./provider.js";
export * from "./proto/index.js";
export * from "./schema/index.js";
export * from "./plugin/index.js";
export * from "./contract/index.js";
export * from "./builtin/index.js";

// Public surface of providers/schema. See README.md.
export * from "./schema.js";
export * from "./dynamic.js";

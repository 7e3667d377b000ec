// The public surface of the providers module. Each part adds its exports here.
export * from "./install/index.js";

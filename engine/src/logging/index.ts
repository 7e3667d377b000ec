// The debug log OpenTofu users turn on with TF_LOG: hclog's line formats, the per-invocation
// loggers, and plugins' own lines passed on.
export { formatJSON, formatPlain, hclogJSONTime, hclogTime, levelFromString, type Level, type LogEntry, type LogValue } from "./hclog.js";
export { coreLog, LOGGING_OFF, Logger, pluginLogEnv, providerLog, withLoggers, type Loggers, type LogSink } from "./logger.js";
export { logPluginLine } from "./plugin_output.js";

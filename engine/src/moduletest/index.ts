// The public surface of moduletest (`terrace test`, OpenTofu's internal/moduletest with the test
// parts of configs and command): test file decoding, discovery, the runner, mock providers and
// the human and JSON views. See README.md.
export { decodeTestFile, providerKey, type TestFile, type TestRun, type TestProvider, type MockResource, type OverrideResource, type OverrideModule } from "./file.js";
export { discoverTestFiles, type DiscoverOptions } from "./discover.js";
export { TestSuiteRunner, type SuiteOptions, type TestView } from "./runner.js";
export { TestProvider as MockingProvider, type TestProviderOptions } from "./mock.js";
export { MockValueComposer } from "./compose.js";
export { checkProviderIteration } from "./providers.js";
export { HumanTestView, JSONTestView, type Output } from "./view.js";
export { erroredTestStateWriter, ERRORED_TEST_STATE_FILENAME, type ErroredTestState, type SaveErroredTestState } from "./errored.js";
export { mergeStatus, type Status, type FileResult, type RunResult, type SuiteResult } from "./status.js";
export { StateScope, type ModuleResourceValues } from "./scope.js";
export { stateResourceValues } from "./values.js";

// The five scenarios of core/testdata (also run live by core/terraform.test.ts), so their
// answers are recorded and compared here too.
import { scenarioSteps } from "../../core.testkit.js";
import type { Scenario } from "../scenario.js";

const ABOUT: Record<string, string> = {
  basic: "core/testdata/basic: create, update in place, orphan delete",
  expansion: "core/testdata/expansion: count and for_each",
  replace: "core/testdata/replace: triggers_replace with and without create_before_destroy",
  dependson: "core/testdata/dependson: depends_on",
  sensitive: "core/testdata/sensitive: sensitive variables and outputs",
};

export const TESTDATA: Scenario[] = Object.entries(ABOUT).map(([name, about]) => ({
  name: `testdata-${name}`,
  about,
  steps: scenarioSteps(name).map((files) => ({ files })),
}));

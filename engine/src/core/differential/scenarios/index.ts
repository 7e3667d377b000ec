// Every differential scenario, by group.
import type { Scenario } from "../scenario.js";
import { BASICS } from "./basics.js";
import { CONDITIONS } from "./conditions.js";
import { DATA } from "./data.js";
import { EXPANSION } from "./expansion.js";
import { LIFECYCLE } from "./lifecycle.js";
import { MODES } from "./modes.js";
import { MODULES } from "./modules.js";
import { MORE } from "./more.js";
import { PROVISIONERS } from "./provisioners.js";
import { REFACTORING } from "./refactoring.js";
import { REPLACE } from "./replace.js";
import { SENSITIVE } from "./sensitive.js";
import { TESTDATA } from "./testdata.js";

export const SCENARIOS: readonly Scenario[] = [...BASICS, ...EXPANSION, ...MODULES, ...REPLACE, ...LIFECYCLE, ...REFACTORING, ...CONDITIONS, ...MODES, ...SENSITIVE, ...PROVISIONERS, ...MORE, ...TESTDATA, ...DATA];

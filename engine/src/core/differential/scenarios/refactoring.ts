// moved, removed and import blocks.
import { main, withModule, type Scenario } from "../scenario.js";

const leaf = `resource "terraform_data" "r" {\n  input = "in-mod"\n}\noutput "out" {\n  value = terraform_data.r.output\n}\n`;

export const REFACTORING: Scenario[] = [
  {
    name: "moved-rename",
    about: "moved renames a resource: no-op with prev_run_addr; the moved block removed afterwards",
    steps: [
      main(`resource "terraform_data" "old" {\n  input = "x"\n}\n`),
      main(`resource "terraform_data" "new" {\n  input = "x"\n}\nmoved {\n  from = terraform_data.old\n  to   = terraform_data.new\n}\n`),
      main(`resource "terraform_data" "new" {\n  input = "x"\n}\n`),
    ],
  },
  {
    name: "moved-rename-and-update",
    about: "moved rename with an input change: an update at the new address",
    steps: [
      main(`resource "terraform_data" "old" {\n  input = "x"\n}\n`),
      main(`resource "terraform_data" "new" {\n  input = "y"\n}\nmoved {\n  from = terraform_data.old\n  to   = terraform_data.new\n}\n`),
    ],
  },
  {
    name: "moved-chain",
    about: "a chain of moved blocks a → b → c applied at once",
    steps: [
      main(`resource "terraform_data" "a" {\n  input = "x"\n}\n`),
      main(`resource "terraform_data" "c" {\n  input = "x"\n}\nmoved {\n  from = terraform_data.a\n  to   = terraform_data.b\n}\nmoved {\n  from = terraform_data.b\n  to   = terraform_data.c\n}\n`),
    ],
  },
  {
    name: "moved-into-module",
    about: "a root resource moved into a module",
    steps: [
      main(`resource "terraform_data" "r" {\n  input = "in-mod"\n}\n`),
      withModule(`module "m" {\n  source = "./mod"\n}\nmoved {\n  from = terraform_data.r\n  to   = module.m.terraform_data.r\n}\n`, leaf),
    ],
  },
  {
    name: "moved-out-of-module",
    about: "a module's resource moved to the root",
    steps: [
      withModule(`module "m" {\n  source = "./mod"\n}\n`, leaf),
      main(`resource "terraform_data" "r" {\n  input = "in-mod"\n}\nmoved {\n  from = module.m.terraform_data.r\n  to   = terraform_data.r\n}\n`),
    ],
  },
  {
    name: "moved-module-rename",
    about: "a module call renamed with moved: every resource inside moves",
    steps: [
      withModule(`module "old" {\n  source = "./mod"\n}\n`, leaf),
      withModule(`module "new" {\n  source = "./mod"\n}\nmoved {\n  from = module.old\n  to   = module.new\n}\n`, leaf),
    ],
  },
  {
    name: "moved-module-to-count",
    about: "a module call gets count: moved module.m → module.m[0]",
    steps: [
      withModule(`module "m" {\n  source = "./mod"\n}\n`, leaf),
      withModule(`module "m" {\n  source = "./mod"\n  count  = 2\n}\nmoved {\n  from = module.m\n  to   = module.m[0]\n}\n`, leaf),
    ],
  },
  {
    name: "moved-count-to-foreach",
    about: "count to for_each with moved blocks per instance",
    steps: [
      main(`resource "terraform_data" "r" {\n  count = 2\n  input = count.index\n}\n`),
      main(`resource "terraform_data" "r" {\n  for_each = { a = 0, b = 1 }\n  input    = each.value\n}\nmoved {\n  from = terraform_data.r[0]\n  to   = terraform_data.r["a"]\n}\nmoved {\n  from = terraform_data.r[1]\n  to   = terraform_data.r["b"]\n}\n`),
    ],
  },
  {
    name: "moved-foreach-rekey",
    about: "for_each key renamed with moved",
    steps: [
      main(`resource "terraform_data" "r" {\n  for_each = toset(["old"])\n  input    = "same"\n}\n`),
      main(`resource "terraform_data" "r" {\n  for_each = toset(["new"])\n  input    = "same"\n}\nmoved {\n  from = terraform_data.r["old"]\n  to   = terraform_data.r["new"]\n}\n`),
    ],
  },
  {
    name: "moved-no-source",
    about: "a moved block whose source is not in state: ignored, the target is created",
    steps: [main(`resource "terraform_data" "b" {\n  input = "x"\n}\nmoved {\n  from = terraform_data.a\n  to   = terraform_data.b\n}\n`), main(`resource "terraform_data" "b" {\n  input = "x"\n}\nmoved {\n  from = terraform_data.a\n  to   = terraform_data.b\n}\n`)],
  },
  {
    name: "moved-target-occupied",
    about: "moved onto an address that already has an object: the move is skipped with a warning",
    steps: [
      main(`resource "terraform_data" "a" {\n  input = "a"\n}\nresource "terraform_data" "b" {\n  input = "b"\n}\n`),
      main(`resource "terraform_data" "b" {\n  input = "b"\n}\nmoved {\n  from = terraform_data.a\n  to   = terraform_data.b\n}\n`),
    ],
  },
  {
    name: "moved-to-removed-config",
    about: "moved to an address with no configuration: the object is deleted at its new address (DeleteBecauseNoMoveTarget)",
    steps: [main(`resource "terraform_data" "a" {\n  input = "a"\n}\n`), main(`moved {\n  from = terraform_data.a\n  to   = terraform_data.b\n}\n`)],
  },
  {
    name: "moved-invalid-cycle",
    about: "moved blocks forming a cycle are an error",
    steps: [
      main(`resource "terraform_data" "a" {\n  input = "a"\n}\n`),
      main(`resource "terraform_data" "c" {\n  input = "a"\n}\nmoved {\n  from = terraform_data.a\n  to   = terraform_data.b\n}\nmoved {\n  from = terraform_data.b\n  to   = terraform_data.a\n}\n`),
    ],
  },
  {
    name: "removed-forget",
    about: "removed with destroy = false: the object is forgotten, not destroyed",
    steps: [
      main(`resource "terraform_data" "a" {\n  input = "a"\n}\nresource "terraform_data" "b" {\n  input = "b"\n}\n`),
      main(`resource "terraform_data" "b" {\n  input = "b"\n}\nremoved {\n  from = terraform_data.a\n  lifecycle {\n    destroy = false\n  }\n}\n`),
      main(`resource "terraform_data" "b" {\n  input = "b"\n}\n`),
    ],
  },
  {
    name: "removed-destroy",
    about: "removed with destroy = true: the object is destroyed",
    steps: [
      main(`resource "terraform_data" "a" {\n  input = "a"\n}\n`),
      main(`removed {\n  from = terraform_data.a\n  lifecycle {\n    destroy = true\n  }\n}\n`),
    ],
  },
  {
    name: "removed-forget-count",
    about: "removed for a resource with count instances: all are forgotten",
    steps: [
      main(`resource "terraform_data" "r" {\n  count = 2\n}\n`),
      main(`removed {\n  from = terraform_data.r\n  lifecycle {\n    destroy = false\n  }\n}\n`),
    ],
  },
  {
    name: "removed-forget-module",
    about: "removed for a whole module call",
    steps: [
      withModule(`module "m" {\n  source = "./mod"\n}\n`, leaf),
      main(`removed {\n  from = module.m\n  lifecycle {\n    destroy = false\n  }\n}\n`),
    ],
  },
  {
    name: "removed-still-configured",
    about: "removed for a resource that is still in the configuration is an error",
    steps: [
      main(`resource "terraform_data" "a" {\n  input = "a"\n}\n`),
      main(`resource "terraform_data" "a" {\n  input = "a"\n}\nremoved {\n  from = terraform_data.a\n  lifecycle {\n    destroy = false\n  }\n}\n`),
    ],
  },
  {
    name: "removed-not-in-state",
    about: "removed for an address not in state: nothing happens",
    steps: [main(`resource "terraform_data" "a" {\n  input = "a"\n}\nremoved {\n  from = terraform_data.gone\n  lifecycle {\n    destroy = false\n  }\n}\n`), main(`resource "terraform_data" "a" {\n  input = "a"\n}\n`)],
  },
  {
    name: "import-block",
    about: "an import block brings an id under management: planned as an update with importing",
    steps: [
      main(`import {\n  to = terraform_data.a\n  id = "imported-id"\n}\nresource "terraform_data" "a" {\n  input = "x"\n}\n`),
      main(`import {\n  to = terraform_data.a\n  id = "imported-id"\n}\nresource "terraform_data" "a" {\n  input = "x"\n}\n`),
      main(`resource "terraform_data" "a" {\n  input = "y"\n}\n`),
    ],
  },
  {
    name: "import-block-no-change",
    about: "an import whose configuration matches the imported object (all null)",
    steps: [main(`import {\n  to = terraform_data.a\n  id = "i"\n}\nresource "terraform_data" "a" {\n}\n`), main(`import {\n  to = terraform_data.a\n  id = "i"\n}\nresource "terraform_data" "a" {\n}\n`)],
  },
  {
    name: "import-foreach-instance",
    about: "import into a for_each instance and a count instance",
    steps: [
      main(`import {\n  to = terraform_data.f["k"]\n  id = "fid"\n}\nimport {\n  to = terraform_data.c[1]\n  id = "cid"\n}\nresource "terraform_data" "f" {\n  for_each = toset(["k", "l"])\n}\nresource "terraform_data" "c" {\n  count = 2\n}\n`), main(`import {\n  to = terraform_data.f["k"]\n  id = "fid"\n}\nimport {\n  to = terraform_data.c[1]\n  id = "cid"\n}\nresource "terraform_data" "f" {\n  for_each = toset(["k", "l"])\n}\nresource "terraform_data" "c" {\n  count = 2\n}\n`)],
  },
  {
    name: "import-into-module",
    about: "import into a resource inside a module",
    steps: [
      withModule(`import {\n  to = module.m.terraform_data.r\n  id = "mid"\n}\nmodule "m" {\n  source = "./mod"\n}\n`, leaf),
      withModule(`module "m" {\n  source = "./mod"\n}\n`, leaf),
    ],
  },
  {
    name: "import-missing-config",
    about: "an import block without a resource block is an error (no config generation); with the block added it imports",
    steps: [main(`import {\n  to = terraform_data.a\n  id = "x"\n}\n`), main(`import {\n  to = terraform_data.a\n  id = "x"\n}\nresource "terraform_data" "a" {\n}\n`)],
  },
  {
    name: "import-for-each",
    about: "import blocks with for_each",
    steps: [
      main(`locals {\n  ids = { a = "id-a", b = "id-b" }\n}\nimport {\n  for_each = local.ids\n  to       = terraform_data.r[each.key]\n  id       = each.value\n}\nresource "terraform_data" "r" {\n  for_each = local.ids\n  input    = each.value\n}\n`), main(`locals {\n  ids = { a = "id-a", b = "id-b" }\n}\nimport {\n  for_each = local.ids\n  to       = terraform_data.r[each.key]\n  id       = each.value\n}\nresource "terraform_data" "r" {\n  for_each = local.ids\n  input    = each.value\n}\n`)],
  },
];

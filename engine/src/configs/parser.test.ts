// Table-driven tests of single-file loading: each invalid fixture in testdata/invalid-files with
// the exact diagnostics OpenTofu gives (severity, summary, subject range, detail), and every valid
// fixture with none. Fixtures named as OpenTofu's internal/configs/testdata ones are reconstructions
// of those; the others exercise one rule each.
import { readdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { plain } from "./diag.testkit.js";
import { nodeFS } from "./nodefs.testkit.js";
import { Parser } from "./parser.js";

const TESTDATA = path.join(import.meta.dirname, "testdata");

type Expected = [severity: string, summary: string, subject: string | undefined, detail: string];

const invalidFiles: [string, Expected[]][] = [
  [
    "check-no-asserts.tf",
    [
      ["error", "Zero assert blocks", "1:1-1:14", "Check blocks must have at least one assert block."],
    ],
  ],
  [
    "data-count-and-for_each.tf",
    [
      ["error", "Invalid combination of \"count\" and \"for_each\"", "3:3-3:11", "The \"count\" and \"for_each\" meta-arguments are mutually-exclusive, only one should be used to be explicit about the number of resources to be created."],
    ],
  ],
  [
    "data-lifecycle-managed-args.tf",
    [
      ["error", "Invalid data resource lifecycle argument", "3:5-3:20", "The lifecycle argument \"prevent_destroy\" is defined only for managed resources (\"resource\" blocks), and is not valid for data resources."],
    ],
  ],
  [
    "ignore-changes-star.tf",
    [
      ["error", "Invalid ignore_changes wildcard", "3:22-3:27", "The [\"*\"] form of ignore_changes wildcard is was deprecated and is now invalid. Use \"ignore_changes = all\" to ignore changes to all attributes."],
    ],
  ],
  [
    "import-no-id.tf",
    [
      ["error", "Missing required import argument", "1:1-1:7", "One of 'id' or 'identity' must be specified in an import block to identify the resource instance to import."],
    ],
  ],
  [
    "module-calls.tf",
    [
      ["error", "Invalid combination of \"count\" and \"for_each\"", "20:3-20:11", "The \"count\" and \"for_each\" meta-arguments are mutually-exclusive, only one should be used to be explicit about the number of resources to be created."],
    ],
  ],
  [
    "moved-mixed.tf",
    [
      ["error", "Invalid \"moved\" addresses", "1:1-1:6", "The \"from\" and \"to\" addresses must either both refer to resources or both refer to modules."],
    ],
  ],
  [
    "output-postcondition.tf",
    [
      ["error", "Postconditions are not allowed", "3:3-3:16", "Output values can only have preconditions, not postconditions."],
    ],
  ],
  [
    "provider-foreach-no-alias.tf",
    [
      ["error", "Alias required when using \"for_each\"", "2:14-2:31", "The for_each argument is allowed only for provider configurations with an alias."],
    ],
  ],
  [
    "provider-reserved.tf",
    [
      ["warning", "Version constraints inside provider configuration blocks are deprecated", "4:13-4:20", "OpenTofu 0.13 and earlier allowed provider version constraints inside the provider configuration block, but that is now deprecated and will be removed in a future version of OpenTofu. To silence this warning, move the provider version constraint into the required_providers block."],
      ["error", "Reserved argument name in provider block", "10:3-10:8", "The provider argument name \"count\" is reserved for use by OpenTofu in a future version."],
      ["error", "Reserved argument name in provider block", "11:3-11:13", "The provider argument name \"depends_on\" is reserved for use by OpenTofu in a future version."],
      ["error", "Reserved argument name in provider block", "13:3-13:9", "The provider argument name \"source\" is reserved for use by OpenTofu in a future version."],
      ["error", "Reserved block type name in provider block", "14:3-14:12", "The block type name \"lifecycle\" is reserved for use by OpenTofu in a future version."],
      ["error", "Reserved block type name in provider block", "15:3-15:9", "The block type name \"locals\" is reserved for use by OpenTofu in a future version."],
    ],
  ],
  [
    "provisioner-when-bad.tf",
    [
      ["error", "Invalid \"when\" keyword", "3:12-3:17", "The \"when\" argument requires one of the following keywords: create or destroy."],
    ],
  ],
  [
    "replace-triggered-by-bad.tf",
    [
      ["error", "Invalid reference in replace_triggered_by expression", "3:29-3:34", "Only resources, count.index, and each.key may be used in replace_triggered_by."],
      ["error", "Invalid replace_triggered_by expression", "3:29-3:34", "Missing resource reference in replace_triggered_by expression."],
    ],
  ],
  [
    "required-providers-toplevel.tf",
    [
      ["error", "Invalid required_providers block", "1:1-1:19", "A \"required_providers\" block must be nested inside a \"terraform\" block."],
    ],
  ],
  [
    "resource-count-and-for_each.tf",
    [
      ["error", "Invalid combination of \"count\" and \"for_each\"", "3:3-3:11", "The \"count\" and \"for_each\" meta-arguments are mutually-exclusive, only one should be used to be explicit about the number of resources to be created."],
    ],
  ],
  [
    "resource-lifecycle-badbool.tf",
    [
      ["error", "Unsuitable value type", "3:30-3:44", "Unsuitable value: a bool is required"],
    ],
  ],
  [
    "resource-provider-key-without-alias.tf",
    [
      ["error", "Invalid provider configuration reference", "3:14-3:18", "Provider assignment requires an alias when specifying an instance key, in the form of provider.name[instance_key]"],
    ],
  ],
  [
    "resource-provider-quoted.tf",
    [
      // Still read as a reference, with OpenTofu's deprecation warning (compat_shim.go).
      [
        "warning",
        "Quoted references are deprecated",
        "2:14-2:24",
        "In this context, references are expected literally rather than in quotes. OpenTofu 0.11 and earlier required quotes, but quoted references are now deprecated and will be removed in a future version of OpenTofu. Remove the quotes surrounding this reference to silence this warning.",
      ],
      ["error", "Invalid provider configuration reference", "5:14-5:30", "The provider argument requires a provider type name, optionally followed by a period and then a configuration alias."],
    ],
  ],
  [
    "variable-complex-bad-default-inner-obj.tf",
    [
      // OpenTofu 1.11 lints the default too, whether or not it converts.
      ["warning", "Object attribute is ignored", "12:13-12:17", 'The object type for ["mykey"] does not include an attribute named "dont", so this definition is unused.'],
      ["error", "Invalid default value for variable", "9:15-14:6", "This default value is not compatible with the variable's type constraint: [\"mykey\"].field: a bool is required."],
    ],
  ],
  [
    "variable-names.tf",
    [
      ["error", "Invalid variable name", "1:10-1:16", "A name must start with a letter or underscore and may contain only letters, digits, underscores, and dashes."],
      ["error", "Invalid variable name", "2:10-2:18", "The variable name \"source\" is reserved due to its special meaning inside module blocks."],
      ["error", "Invalid variable name", "3:10-3:17", "The variable name \"count\" is reserved due to its special meaning inside module blocks."],
    ],
  ],
  [
    "variable-nullable-null-default.tf",
    [
      ["error", "Invalid default value for variable", "4:14-4:18", "A null default value is not valid when nullable=false."],
    ],
  ],
  [
    "variable-quoted-type.tf",
    [
      ["error", "Invalid quoted type constraints", "2:10-2:18", "OpenTofu 0.11 and earlier required type constraints to be given in quotes, but that form is now deprecated and will be removed in a future version of OpenTofu. Remove the quotes around \"string\"."],
      ["error", "Invalid quoted type constraints", "5:10-5:16", "OpenTofu 0.11 and earlier required type constraints to be given in quotes, but that form is now deprecated and will be removed in a future version of OpenTofu. Remove the quotes around \"list\" and write list(string) instead to explicitly indicate that the list elements are strings."],
      ["error", "Invalid legacy variable type hint", "8:10-8:18", "To provide a full type expression, remove the surrounding quotes and give the type expression directly."],
    ],
  ],
  [
    "variable-type-unknown.tf",
    [
      ["error", "Invalid type specification", "2:10-2:18", "The keyword \"notatype\" is not a valid type specification."],
    ],
  ],
  [
    "variable-validation-self.tf",
    [
      ["error", "Invalid variable validation condition", "3:21-3:32", "The condition for variable \"a\" must refer to var.a in order to test incoming values."],
    ],
  ],
];

describe("invalid files", () => {
  const parser = new Parser(nodeFS());
  it("covers every fixture", () => {
    expect(invalidFiles.map(([f]) => f)).toEqual(readdirSync(path.join(TESTDATA, "invalid-files")).sort());
  });
  it.each(invalidFiles)("%s", (file, want) => {
    const r = parser.loadConfigFile(path.join(TESTDATA, "invalid-files", file));
    const got = plain(r.diagnostics).map((d) => [d.severity, d.summary, d.subject, d.detail]);
    expect(got).toEqual(want);
  });
});

describe("valid files", () => {
  const parser = new Parser(nodeFS());
  it.each(readdirSync(path.join(TESTDATA, "valid-files")).sort())("%s loads without diagnostics", (file) => {
    const r = parser.loadConfigFile(path.join(TESTDATA, "valid-files", file));
    expect(plain(r.diagnostics)).toEqual([]);
  });
});

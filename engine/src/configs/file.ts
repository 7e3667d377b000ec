// One configuration file decoded block by block (OpenTofu's parser_config.go). A File holds what
// the file declares without checking it against other files; module.ts combines files.
import { errorDiag, exprAsKeyword, exprList, partialContent, type BodySchema, type Diagnostic, type SyntaxBody } from "../hcl/index.js";
import { configBodyContent } from "./body.js";
import { decodeBackendBlock, decodeCloudBlock, decodeEncryptionBlock, decodeProviderMetaBlock, type Backend, type CloudConfig, type EncryptionConfig, type ProviderMeta } from "./backend.js";
import { decodeCheckBlock, type Check } from "./check.js";
import { decodeImportBlock, type Import } from "./import.js";
import { decodeLocalsBlock, type Local } from "./local.js";
import { decodeModuleBlock, type ModuleCall } from "./modulecall.js";
import { decodeMovedBlock, type Moved } from "./moved.js";
import { decodeOutputBlock, type Output } from "./output.js";
import type { ProviderFunctionCall } from "./provider_functions.js";
import { decodeProviderBlock, type Provider } from "./provider.js";
import { decodeRemovedBlock, type Removed } from "./removed.js";
import { decodeRequiredProvidersBlock, type RequiredProviders } from "./required_providers.js";
import { decodeDataBlock, decodeEphemeralBlock, decodeResourceBlock, type Resource } from "./resource.js";
import { decodeVariableBlock, type Variable } from "./variable.js";
import { decodeVersionConstraint, type VersionConstraint } from "./version_constraint.js";

export interface File {
  /** The file's name as given to the parser. */
  filename: string;
  coreVersionConstraints: VersionConstraint[];
  activeExperiments: string[];
  backends: Backend[];
  cloudConfigs: CloudConfig[];
  providerConfigs: Provider[];
  providerMetas: ProviderMeta[];
  requiredProviders: RequiredProviders[];
  encryptions: EncryptionConfig[];
  variables: Variable[];
  locals: Local[];
  outputs: Output[];
  moduleCalls: ModuleCall[];
  managedResources: Resource[];
  dataResources: Resource[];
  ephemeralResources: Resource[];
  moved: Moved[];
  imports: Import[];
  removed: Removed[];
  checks: Check[];
  /** Calls of provider-defined functions anywhere in the file (provider_functions.ts). */
  providerFunctionCalls: ProviderFunctionCall[];
}

export function emptyFile(filename: string): File {
  return {
    filename,
    coreVersionConstraints: [],
    activeExperiments: [],
    backends: [],
    cloudConfigs: [],
    providerConfigs: [],
    providerMetas: [],
    requiredProviders: [],
    encryptions: [],
    variables: [],
    locals: [],
    outputs: [],
    moduleCalls: [],
    managedResources: [],
    dataResources: [],
    ephemeralResources: [],
    moved: [],
    imports: [],
    removed: [],
    checks: [],
    providerFunctionCalls: [],
  };
}

const configFileSchema: BodySchema = {
  blocks: [
    { type: "terraform" },
    // Not valid here; listed so that the error can suggest nesting it in "terraform".
    { type: "required_providers" },
    { type: "provider", labelNames: ["name"] },
    { type: "variable", labelNames: ["name"] },
    { type: "locals" },
    { type: "output", labelNames: ["name"] },
    { type: "module", labelNames: ["name"] },
    { type: "resource", labelNames: ["type", "name"] },
    { type: "data", labelNames: ["type", "name"] },
    { type: "ephemeral", labelNames: ["type", "name"] },
    { type: "moved" },
    { type: "import" },
    { type: "check", labelNames: ["name"] },
    { type: "removed" },
  ],
};

const terraformBlockSchema: BodySchema = {
  attributes: [{ name: "required_version" }, { name: "experiments" }, { name: "language" }],
  blocks: [
    { type: "backend", labelNames: ["type"] },
    { type: "cloud" },
    { type: "required_providers" },
    { type: "provider_meta", labelNames: ["provider"] },
    { type: "encryption" },
  ],
};

const sniffRootSchema: BodySchema = { blocks: [{ type: "terraform" }] };
const versionSniffSchema: BodySchema = { attributes: [{ name: "required_version" }] };
const experimentsSniffSchema: BodySchema = { attributes: [{ name: "experiments" }, { name: "language" }] };

/** The OpenTofu version this engine is compatible with, named in language-edition errors. */
export const OPENTOFU_COMPAT_VERSION = "1.11.0";

/**
 * Decodes a parsed file's body. `override` relaxes required arguments, for override files.
 * The `required_version` and `experiments` are read first, on their own, so that they can be
 * reported even when the rest of the file is from a newer language.
 */
export function decodeConfigFile(body: SyntaxBody, filename: string, override: boolean): { file: File; diagnostics: Diagnostic[] } {
  const file = emptyFile(filename);
  const diagnostics: Diagnostic[] = [];
  sniffCoreVersionRequirements(body, file, diagnostics);
  sniffActiveExperiments(body, diagnostics);

  const { content, diagnostics: contentDiags } = configBodyContent(body, configFileSchema);
  diagnostics.push(...contentDiags);
  for (const block of content.blocks) {
    switch (block.type) {
      case "terraform": {
        const tb = configBodyContent(block.body, terraformBlockSchema);
        diagnostics.push(...tb.diagnostics);
        // required_version, experiments and language were handled by the sniffers above.
        for (const inner of tb.content.blocks) {
          switch (inner.type) {
            case "backend":
              file.backends.push(decodeBackendBlock(inner));
              break;
            case "cloud":
              file.cloudConfigs.push(decodeCloudBlock(inner));
              break;
            case "required_providers": {
              const r = decodeRequiredProvidersBlock(inner);
              diagnostics.push(...r.diagnostics);
              file.requiredProviders.push(r.requiredProviders);
              break;
            }
            case "provider_meta":
              file.providerMetas.push(decodeProviderMetaBlock(inner));
              break;
            case "encryption": {
              const r = decodeEncryptionBlock(inner);
              diagnostics.push(...r.diagnostics);
              file.encryptions.push(r.encryption);
              break;
            }
          }
        }
        break;
      }
      case "required_providers":
        diagnostics.push(errorDiag("Invalid required_providers block", 'A "required_providers" block must be nested inside a "terraform" block.', block.typeRange));
        break;
      case "provider": {
        const r = decodeProviderBlock(block);
        diagnostics.push(...r.diagnostics);
        if (r.provider) file.providerConfigs.push(r.provider);
        break;
      }
      case "variable": {
        const r = decodeVariableBlock(block, override);
        diagnostics.push(...r.diagnostics);
        file.variables.push(r.variable);
        break;
      }
      case "locals": {
        const r = decodeLocalsBlock(block);
        diagnostics.push(...r.diagnostics);
        file.locals.push(...r.locals);
        break;
      }
      case "output": {
        const r = decodeOutputBlock(block, override);
        diagnostics.push(...r.diagnostics);
        file.outputs.push(r.output);
        break;
      }
      case "module": {
        const r = decodeModuleBlock(block, override);
        diagnostics.push(...r.diagnostics);
        file.moduleCalls.push(r.call);
        break;
      }
      case "resource": {
        const r = decodeResourceBlock(block, override);
        diagnostics.push(...r.diagnostics);
        file.managedResources.push(r.resource);
        break;
      }
      case "data": {
        const r = decodeDataBlock(block, override, false);
        diagnostics.push(...r.diagnostics);
        file.dataResources.push(r.resource);
        break;
      }
      case "ephemeral": {
        const r = decodeEphemeralBlock(block, override);
        diagnostics.push(...r.diagnostics);
        file.ephemeralResources.push(r.resource);
        break;
      }
      case "moved": {
        const r = decodeMovedBlock(block);
        diagnostics.push(...r.diagnostics);
        file.moved.push(r.moved);
        break;
      }
      case "import": {
        const r = decodeImportBlock(block);
        diagnostics.push(...r.diagnostics);
        file.imports.push(r.imp);
        break;
      }
      case "check": {
        const r = decodeCheckBlock(block, override);
        diagnostics.push(...r.diagnostics);
        file.checks.push(r.check);
        break;
      }
      case "removed": {
        const r = decodeRemovedBlock(block);
        diagnostics.push(...r.diagnostics);
        file.removed.push(r.removed);
        break;
      }
    }
  }
  return { file, diagnostics };
}

function sniffCoreVersionRequirements(body: SyntaxBody, file: File, diagnostics: Diagnostic[]): void {
  const root = partialContent(body, sniffRootSchema);
  diagnostics.push(...root.diagnostics);
  for (const block of root.content.blocks) {
    const inner = partialContent(block.body, versionSniffSchema);
    diagnostics.push(...inner.diagnostics);
    const attr = inner.content.attributes.get("required_version");
    if (!attr) continue;
    const r = decodeVersionConstraint(attr);
    diagnostics.push(...r.diagnostics);
    if (!r.diagnostics.some((d) => d.severity === "error")) file.coreVersionConstraints.push(r.constraint);
  }
}

/**
 * OpenTofu has no current language experiments and supports only language edition TF2021, so
 * any `experiments` keyword is an error; the diagnostics match a release build's.
 */
function sniffActiveExperiments(body: SyntaxBody, diagnostics: Diagnostic[]): void {
  const root = partialContent(body, sniffRootSchema);
  for (const block of root.content.blocks) {
    const inner = partialContent(block.body, experimentsSniffSchema);
    diagnostics.push(...inner.diagnostics);
    const lang = inner.content.attributes.get("language");
    if (lang) {
      const kw = exprAsKeyword(lang.expr);
      const firstEdition = "TF2021";
      if (kw === "") {
        diagnostics.push(
          errorDiag(
            "Invalid language edition",
            `The language argument expects a bare language edition keyword. OpenTofu ${OPENTOFU_COMPAT_VERSION} supports only language edition ${firstEdition}, which is the default.`,
            lang.expr.range,
          ),
        );
      } else if (kw !== firstEdition) {
        diagnostics.push(
          errorDiag(
            "Unsupported language edition",
            `OpenTofu v${OPENTOFU_COMPAT_VERSION} only supports language edition ${firstEdition}. This module requires a ${kw > firstEdition ? "newer" : "different"} version of OpenTofu CLI.`,
            lang.expr.range,
          ),
        );
      }
    }
    const exp = inner.content.attributes.get("experiments");
    if (!exp) continue;
    const list = exprList(exp.expr);
    if (list.diagnostics.length > 0) {
      diagnostics.push(...list.diagnostics);
      continue;
    }
    diagnostics.push(
      errorDiag(
        "Module uses experimental features",
        "Experimental features are intended only for gathering early feedback on new language designs, and so are available only in alpha releases of OpenTofu.",
        exp.nameRange,
      ),
    );
  }
}

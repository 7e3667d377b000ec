// OpenTofu's errors for an object whose provider is gone: the provider *instance* a resource
// instance needs is not declared any more (node_resource_abstract_instance.go's resolveProvider:
// a key left the provider's for_each, or for_each was added to a single-instance provider), and
// the provider *configuration* an orphan was created with has been removed (ProviderTransformer).
// Both are sourceless, as in OpenTofu.
import { AbsProviderConfig, ConfigResource, Module as ModuleAddr, Resource as ResourceAddr, instanceKeyString, type AbsResourceInstance, type InstanceKey } from "../addrs/index.js";
import { providerForLocalName, providerKey, type Config } from "../configs/index.js";
import type { Diagnostic } from "../hcl/index.js";
import { resolveResourceProvider } from "./providerconfig.js";

/** "Provider instance not present", in the variant for the instance's key and for a deposed object. */
export function providerInstanceNotPresent(addr: AbsResourceInstance, provider: AbsProviderConfig, key: InstanceKey, deposedKey?: string): Diagnostic {
  const inst = addr.toString();
  const at = provider.instanceString(key);
  const config = provider.toString();
  const keyed = key.kind !== "NoKey";
  let detail: string;
  if (deposedKey === undefined) {
    detail = keyed
      ? `To work with ${inst} its original provider instance at ${at} is required, but it has been removed. This occurs when an element is removed from the provider configuration's for_each collection while objects created by that the associated provider instance still exist in the state. Re-add the for_each element to destroy ${inst}, after which you can remove the provider configuration again.\n\nThis is commonly caused by using the same for_each collection both for a resource (or its containing module) and its associated provider configuration. To successfully remove an instance of a resource it must be possible to remove the corresponding element from the resource's for_each collection while retaining the corresponding element in the provider's for_each collection.`
      : `To work with ${inst} its original provider instance at ${at} is required, but it has been removed. This suggests that you've added for_each to this provider configuration while there are existing instances of ${addr.containingResource().toString()} that need to be destroyed by the original single-instance provider configuration.\n\nTo proceed, return to your previous single-instance configuration for ${config} and ensure that ${inst} has been destroyed or forgotten before using for_each with this provider, or change the resource configuration to still declare an instance with the key ${instanceKeyString(addr.resource.key)}.`;
  } else {
    detail = keyed
      ? `To work with ${inst}'s deposed object ${deposedKey} its original provider instance at ${at} is required, but it has been removed. This occurs when an element is removed from the provider configuration's for_each collection while objects created by that the associated provider instance still exist in the state. Re-add the for_each element to destroy this deposed object for ${inst}, after which you can remove the provider configuration again.`
      : `To work with ${inst}'s deposed object ${deposedKey} its original provider instance at ${at} is required, but it has been removed. This suggests that you've added for_each to this provider configuration while there are existing deposed objects of ${inst} that need to be destroyed by the original single-instance provider configuration.\n\nTo proceed, return to your previous single-instance configuration for ${config} and ensure that all deposed instances of ${inst} have been destroyed before using for_each with this provider.`;
  }
  return { severity: "error", summary: "Provider instance not present", detail };
}

/** "Provider configuration not present" for a graph node (its name, e.g. `aws_x.y["k"] (orphan)`). */
export function providerConfigNotPresent(nodeName: string, provider: AbsProviderConfig): Diagnostic {
  return {
    severity: "error",
    summary: "Provider configuration not present",
    detail: `To work with ${nodeName} its original provider configuration at ${provider.toString()} is required, but it has been removed. This occurs when a provider configuration is removed while objects created by that provider still exist in the state. Re-add the provider configuration to destroy ${nodeName}, after which you can remove the provider configuration again.`,
  };
}

/**
 * Resources of one module whose `provider` names an alias that no module up the tree declares or
 * passes in: the validate walk finds no provider for them (a default configuration is implied
 * when absent; an alias is not). Since OpenTofu 1.11 an alias the root module declares in
 * `configuration_aliases` stands for an empty configuration in `validate` (`validateOnly`), so
 * that a module written to be called with providers passed in validates on its own; a plan still
 * needs the configuration.
 */
export function undeclaredProviderAliases(c: Config, validateOnly = false): Diagnostic[] {
  const out: Diagnostic[] = [];
  const expected = new Set<string>();
  if (validateOnly && c.path.length === 0) {
    for (const rp of c.module.providerRequirements.requiredProviders.values()) for (const a of rp.aliases) expected.add(providerKey(a.localName, a.alias));
  }
  for (const r of [...c.module.managedResources.values(), ...c.module.dataResources.values(), ...c.module.ephemeralResources.values()]) {
    const resolved = resolveResourceProvider(c, r);
    if (!resolved || resolved.config || resolved.addr.alias === "") continue;
    if (expected.has(providerKey(r.providerConfigRef?.name ?? "", resolved.addr.alias))) continue;
    out.push(providerConfigNotPresent(new ConfigResource(new ModuleAddr(c.path), new ResourceAddr(r.mode, r.type, r.name)).toString(), resolved.addr));
  }
  return out;
}

/**
 * ProviderConfigTransformer.addProxyProviders: a module call's `providers` entry naming an alias
 * its module neither declares nor receives from its own caller cannot be built into the graph:
 * "missing provider provider[…].alias", sourceless, as tofu returns the graph's error. (An
 * unaliased name stands for a default configuration, which is implied when absent.)
 */
export function missingPassedProviders(c: Config): Diagnostic[] {
  const out: Diagnostic[] = [];
  const received = new Set<string>();
  const ownCall = c.parent?.module.moduleCalls.get(c.path[c.path.length - 1] ?? "");
  for (const pp of ownCall?.providers ?? []) received.add(providerKey(pp.inChild.name, pp.inChild.alias));
  for (const [callName, call] of c.module.moduleCalls) {
    const child = c.children.get(callName);
    for (const pp of call.providers) {
      const { name, alias } = pp.inParent;
      if (alias === "" || c.module.providerConfigs.has(providerKey(name, alias)) || received.has(providerKey(name, alias))) continue;
      // The address tofu looks for: the child's provider for the name it receives, in this module.
      const fqn = child ? providerForLocalName(child.module, pp.inChild.name) : pp.inParent.providerType;
      if (!fqn) continue;
      out.push({ severity: "error", summary: `missing provider ${new AbsProviderConfig(new ModuleAddr(c.path), fqn, alias).toString()}`, detail: "" });
    }
  }
  return out;
}

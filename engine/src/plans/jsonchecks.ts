// The `checks` section of the JSON formats (OpenTofu's internal/command/jsonchecks). Check
// results in state keep their addresses as strings, so the parts of each address are read back
// from the text here.
import { instanceKeyValue, parseAbsResourceInstanceStr, type InstanceKey } from "../addrs/index.js";
import type { CheckResultAggregate, CheckResults } from "../states/model.js";
import { compareStrings, marshalJSON } from "../values/index.js";
import { goArray, goMap, goObject, goString } from "./gojson.js";

interface SplitAddr {
  module: string;
  rest: string;
}

/** Splits `module.a["k"].module.b.rest` into the module instance path and the rest. */
function splitModule(addr: string): SplitAddr {
  const re = /^module\.[A-Za-z_][A-Za-z0-9_-]*(\[(?:"(?:[^"\\]|\\.)*"|[0-9]+)\])?\./;
  let rest = addr;
  let module = "";
  for (;;) {
    const m = re.exec(rest);
    if (!m) break;
    module += (module ? "." : "") + m[0].slice(0, -1);
    rest = rest.slice(m[0].length);
  }
  return { module, rest };
}

function staticAddress(a: CheckResultAggregate): string {
  const { module, rest } = splitModule(a.configAddr);
  const entries: Array<[string, string]> = [["to_display", goString(a.configAddr)]];
  if (module) entries.push(["module", goString(module)]);
  switch (a.objectKind) {
    case "resource": {
      entries.push(["kind", goString("resource")]);
      const data = rest.startsWith("data.");
      const parts = (data ? rest.slice(5) : rest).split(".");
      entries.push(["mode", goString(data ? "data" : "managed")], ["type", goString(parts[0] ?? "")], ["name", goString(parts[1] ?? "")]);
      break;
    }
    case "output":
      entries.push(["kind", goString("output_value")], ["name", goString(rest.replace(/^output\./, ""))]);
      break;
    case "check":
      entries.push(["kind", goString("check")], ["name", goString(rest.replace(/^check\./, ""))]);
      break;
    case "var":
      entries.push(["kind", goString("var")], ["name", goString(rest.replace(/^var\./, ""))]);
      break;
  }
  return goMap(entries);
}

function instanceKeyOf(kind: CheckResultAggregate["objectKind"], addr: string): InstanceKey | undefined {
  if (kind === "resource") {
    const r = parseAbsResourceInstanceStr(addr).result;
    return r && r.resource.key.kind !== "NoKey" ? r.resource.key : undefined;
  }
  const m = /\[(?:"((?:[^"\\]|\\.)*)"|([0-9]+))\]$/.exec(splitModule(addr).rest);
  if (!m) return undefined;
  if (m[2] !== undefined) return { kind: "IntKey", value: Number(m[2]) } as InstanceKey;
  return { kind: "StringKey", value: JSON.parse(`"${m[1] ?? ""}"`) as string } as InstanceKey;
}

function dynamicAddress(kind: CheckResultAggregate["objectKind"], addr: string): string {
  const entries: Array<[string, string]> = [["to_display", goString(addr)]];
  const { module } = splitModule(addr);
  if (module) entries.push(["module", goString(module)]);
  const key = instanceKeyOf(kind, addr);
  if (key) {
    const v = instanceKeyValue(key);
    const j = marshalJSON(v, v.type);
    if (j.ok) entries.push(["instance_key", j.value]);
  }
  return goMap(entries);
}

/** jsonchecks.MarshalCheckStates: one entry per checkable configuration object, by address. */
export function marshalCheckResults(cr: CheckResults): string {
  const statics = [...cr.configResults].sort((a, b) => compareStrings(a.configAddr, b.configAddr));
  return goArray(
    statics.map((a) => {
      const objects = [...a.objects].sort((x, y) => compareStrings(x.objectAddr, y.objectAddr));
      const instances = objects.map((o) =>
        goObject([
          ["address", dynamicAddress(a.objectKind, o.objectAddr)],
          ["status", goString(o.status)],
          ["problems", o.failureMessages.length > 0 ? goArray(o.failureMessages.map((m) => goObject([["message", goString(m)]]))) : undefined],
        ]),
      );
      return goObject([
        ["address", staticAddress(a)],
        ["status", goString(a.status)],
        ["instances", instances.length > 0 ? goArray(instances) : undefined],
      ]);
    }),
  );
}

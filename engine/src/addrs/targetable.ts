// Targetable addresses: what `-target`, `-exclude` and `-replace` can name, and the containment
// rule that decides which objects an operation includes (OpenTofu's Targetable.TargetContains).
import { Module } from "./module.js";
import { ModuleInstance } from "./moduleinstance.js";
import { AbsResource, AbsResourceInstance, ConfigResource } from "./resource.js";

export type Targetable = Module | ModuleInstance | AbsResource | AbsResourceInstance | ConfigResource;

function moduleContains(m: Module, other: Targetable): boolean {
  switch (other.kind) {
    case "Module":
      return other.steps.length >= m.steps.length && m.steps.every((s, i) => s === other.steps[i]);
    case "ModuleInstance":
      return moduleContains(m, other.module());
    case "ConfigResource":
    case "AbsResource":
    case "AbsResourceInstance":
      return targetContains(m, other.module);
  }
}

function moduleInstanceContains(m: ModuleInstance, other: Targetable): boolean {
  switch (other.kind) {
    case "Module":
      // A keyed step names one instance, so it cannot contain a whole (unexpanded) module.
      if (other.steps.length < m.steps.length) return false;
      return m.steps.every((s, i) => s.key.kind === "NoKey" && s.name === other.steps[i]);
    case "ModuleInstance": {
      if (other.steps.length < m.steps.length) return false;
      for (let i = 0; i < m.steps.length; i++) {
        const ours = m.steps[i];
        const theirs = other.steps[i];
        if (!ours || !theirs || ours.name !== theirs.name) return false;
        // Targets are parsed as instances, so an unkeyed last step stands for every instance.
        if (i === m.steps.length - 1 && ours.key.kind === "NoKey") return true;
        if (!sameKey(ours.key, theirs.key)) return false;
      }
      return true;
    }
    case "ConfigResource":
    case "AbsResource":
    case "AbsResourceInstance":
      return targetContains(m, other.module);
  }
}

function sameKey(a: ModuleInstance["steps"][number]["key"], b: ModuleInstance["steps"][number]["key"]): boolean {
  if (a.kind === "NoKey" || b.kind === "NoKey") return a.kind === b.kind;
  return a.kind === b.kind && a.value === b.value;
}

/**
 * Whether `other` is the target itself or inside it: a module contains its resources and
 * sub-modules, a resource contains its instances.
 */
export function targetContains(target: Targetable, other: Targetable): boolean {
  switch (target.kind) {
    case "Module":
      return moduleContains(target, other);
    case "ModuleInstance":
      return moduleInstanceContains(target, other);
    case "AbsResource":
      switch (other.kind) {
        case "AbsResource":
        case "ConfigResource":
          // String equality is how OpenTofu compares across the two kinds.
          return other.toString() === target.toString();
        case "AbsResourceInstance":
          return targetContains(target, other.containingResource());
        default:
          return false;
      }
    case "AbsResourceInstance":
      switch (other.kind) {
        case "AbsResourceInstance":
        case "ConfigResource":
        case "AbsResource":
          return other.toString() === target.toString();
        default:
          return false;
      }
    case "ConfigResource":
      switch (other.kind) {
        case "ConfigResource":
          return other.toString() === target.toString();
        case "AbsResource":
          return targetContains(target, other.config());
        case "AbsResourceInstance":
          return targetContains(target, other.containingResource());
        default:
          return false;
      }
  }
}

/** The module instance part of a target (a static Module is taken to have no keyed steps). */
export function targetModuleAddr(t: Targetable): ModuleInstance {
  switch (t.kind) {
    case "ModuleInstance":
      return t;
    case "Module":
      return t.unkeyedInstanceShim();
    case "AbsResource":
    case "AbsResourceInstance":
      return t.module;
    case "ConfigResource":
      return t.module.unkeyedInstanceShim();
  }
}

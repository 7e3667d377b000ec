// The public surface of the versions module: semantic versions and OpenTofu's provider version
// constraint syntax (go-versions' Ruby-style constraints). Browser-safe. See README.md.
export {
  UNSPECIFIED_VERSION,
  makeVersion,
  parseVersion,
  mustParseVersion,
  versionString,
  compareVersions,
  versionLessThan,
  versionGreaterThan,
  sameVersion,
  versionsEqual,
  isUnspecifiedVersion,
  sortVersions,
  type Version,
  type ParseResult,
} from "./version.js";
export {
  parseVersionConstraint,
  parseVersionConstraints,
  mustParseVersionConstraints,
  versionConstraintsString,
  meetsConstraints,
  newestMatching,
  constraintsOnlyUnspecified,
  type ConstraintOp,
  type VersionSpec,
  type VersionConstraint,
  type VersionConstraints,
} from "./constraints.js";

// The public surface of providers/install: the dependency lock file, package hashes, the CLI
// configuration's provider_installation settings, filesystem mirrors, and the installer behind
// `init`. Pure parts (lock file format, hashing bytes, sources) need no Node APIs; the file-system
// parts (mirrors, cache directories, config lookup, the installer) run in the CLI and the worker.
// See README.md.
export { HASH_SCHEME_1, HASH_SCHEME_ZIP, parseHash, hashScheme, preferredHashes, hashV1, hashLegacyZip, hashZipV1, hashZipContentsV1, packageMatchesAnyHash, type Hash, type HashedFile, type HashablePackage } from "./hash.js";
export { readZip, type ZipEntry, type ZipResult } from "./zip.js";
export {
  LOCK_FILE_PATH,
  Locks,
  newProviderLock,
  providerIsLockable,
  lockPreferredHashes,
  loadLocksFromBytes,
  saveLocksToBytes,
  type ProviderLock,
  type LoadLocksOptions,
  type SaveLocksOptions,
} from "./locks.js";
export {
  decodeCLIConfig,
  mergeCLIConfig,
  emptyCLIConfig,
  expandEnv,
  type CLIConfig,
  type DevOverride,
  type ProviderInstallation,
  type ProviderInstallationMethod,
  type ProviderInstallationLocation,
} from "./cliconfig.js";
export {
  platformString,
  parsePlatform,
  packageLocationString,
  sourceErrorMessage,
  parseMatchingPatterns,
  patternsMatch,
  selectorCanHandle,
  MultiSource,
  OfflineRegistrySource,
  BundledProviderSource,
  WILDCARD,
  type Platform,
  type PackageLocation,
  type PackageMeta,
  type SourceError,
  type VersionsResult,
  type MetaResult,
  type ProviderSource,
  type ProviderPattern,
  type SourceSelector,
  type BundledProvider,
} from "./source.js";
export { currentPlatform } from "./platform.js";
export { searchLocalDirectory, FilesystemMirrorSource, type PackagesByProvider } from "./fsmirror.js";
export { hashPackageDir, hashPackageArchiveContents, packageFiles } from "./fshash.js";
export { ProviderCacheDir, executableFile, executableIn, cachedProviderHash, verifyInstalledProviders, type CachedProvider, type InstallOutcome } from "./cachedir.js";
export { loadLocksFromFile, saveLocksToFile } from "./lockfile-fs.js";
export {
  processCLIEnvironment,
  loadCLIConfig,
  cliConfigFileOverride,
  defaultConfigFile,
  configDir,
  dataDirs,
  impliedSearchDirs,
  devOverrides,
  providerSourceForCLIConfig,
  type CLIEnvironment,
} from "./cliconfig-load.js";
export {
  ensureProviderVersions,
  devOverridesInitWarning,
  devOverridesWarning,
  installErrorDiagnostic,
  type ProviderRequirement,
  type InstallMode,
  type InstallOptions,
  type InstallerEvents,
  type ProviderInstallError,
  type InstalledProvider,
  type InstallResult,
} from "./installer.js";

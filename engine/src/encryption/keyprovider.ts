// What every key provider type offers the setup (OpenTofu's keyprovider.Descriptor, Config and
// KeyProvider): its arguments, building a provider from them, and providing keys from the
// metadata stored with the data (raw JSON bytes, decoded by the type).
import type { ArgSpec, DecodedArgs, KeyMaterial } from "./decode.js";

/** `metadata`: the stored metadata could not be decoded (OpenTofu reports that apart). */
export type ProvideResult = { keys: KeyMaterial; meta: Uint8Array | undefined } | { error: string; metadata?: boolean };

export interface KeyProvider {
  /**
   * Keys for decrypting with `stored` (the metadata read with the data, if any) and for
   * encrypting, with the metadata to store beside what it encrypts. `decryptOnly` lets a type
   * skip making a new key that would never be used.
   */
  provide(stored: Uint8Array | undefined, decryptOnly: boolean): ProvideResult;
}

export interface KeyProviderType {
  readonly args: ReadonlyMap<string, ArgSpec>;
  build(args: DecodedArgs): { provider: KeyProvider } | { error: string };
}

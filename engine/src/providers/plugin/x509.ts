// The AutoMTLS certificate's structures (see certs.ts for what go-plugin puts in it), built with
// PeculiarVentures' ASN.1 schemas for X.509 and elliptic curves (@peculiar/asn1-x509,
// @peculiar/asn1-ecc) and signed with node:crypto. Imported by certs.ts on first use;
// engine/scripts/build.mjs bundles it with those packages into one file for dist, because Node
// loads their many small CommonJS files into an ES module (resolving, scanning each for exports,
// compiling) slowly enough to show in the host's first plugin launch.

import { ECParameters, id_ecPublicKey, id_ecdsaWithSHA512, id_secp521r1 } from "@peculiar/asn1-ecc";
import { AsnConvert, OctetString } from "@peculiar/asn1-schema";
import {
  AlgorithmIdentifier,
  AttributeTypeAndValue,
  AttributeValue,
  BasicConstraints,
  Certificate,
  ExtendedKeyUsage,
  Extension,
  Extensions,
  GeneralName,
  KeyUsage,
  KeyUsageFlags,
  Name,
  RelativeDistinguishedName,
  SubjectAlternativeName,
  SubjectKeyIdentifier,
  SubjectPublicKeyInfo,
  TBSCertificate,
  Validity,
  Version,
  id_ce_basicConstraints,
  id_ce_extKeyUsage,
  id_ce_keyUsage,
  id_ce_subjectAltName,
  id_ce_subjectKeyIdentifier,
  id_kp_clientAuth,
  id_kp_serverAuth,
} from "@peculiar/asn1-x509";
import { createHash, randomBytes, sign, type KeyObject } from "node:crypto";

const VALIDITY_HOURS = 262_980;

function extension(extnID: string, critical: boolean, value: object): Extension {
  return new Extension({ extnID, critical, extnValue: new OctetString(AsnConvert.serialize(value)) });
}

function printable(type: string, value: string): RelativeDistinguishedName {
  return new RelativeDistinguishedName([new AttributeTypeAndValue({ type, value: new AttributeValue({ printableString: value }) })]);
}

/**
 * An unsigned big-endian number as the content of a DER INTEGER, which the library writes as
 * given: no leading zero bytes except one before a first byte with its high bit set (else the
 * number would read as negative). TLS stacks refuse anything else ("illegal padding").
 */
export function derPositiveInteger(bytes: Uint8Array): ArrayBuffer {
  let start = 0;
  while (start < bytes.length - 1 && bytes[start] === 0) start++;
  const digits = bytes.subarray(start);
  const out = new Uint8Array(digits.length === 0 || ((digits[0] as number) & 0x80) !== 0 ? digits.length + 1 : digits.length);
  out.set(digits, out.length - digits.length);
  return out.buffer;
}

/**
 * The public key as X.509 wants it: the curve's name and the uncompressed point. Made from the
 * key's coordinates rather than by parsing node:crypto's SPKI encoding, which would run the
 * library's whole parser (schema checks included) on every plugin's start for the same bytes.
 */
function publicKeyInfo(publicKey: KeyObject): SubjectPublicKeyInfo {
  const { crv, x, y } = publicKey.export({ format: "jwk" });
  if (crv !== "P-521") throw new Error(`AutoMTLS certificates use P-521 keys, not ${String(crv)}`);
  const point = Buffer.concat([Buffer.from([4]), Buffer.from(x ?? "", "base64url"), Buffer.from(y ?? "", "base64url")]);
  return new SubjectPublicKeyInfo({
    algorithm: new AlgorithmIdentifier({ algorithm: id_ecPublicKey, parameters: AsnConvert.serialize(new ECParameters({ namedCurve: id_secp521r1 })) }),
    subjectPublicKey: new Uint8Array(point).buffer,
  });
}

/** The DER of go-plugin's certificate for this P-521 key pair, valid from 30 s before `now`. */
export function selfSignedCertificate(publicKey: KeyObject, privateKey: KeyObject, now: Date): Uint8Array {
  const spki = publicKeyInfo(publicKey);
  const name = new Name([printable("2.5.4.10", "HashiCorp"), printable("2.5.4.3", "localhost")]);
  // Go's x509.CreateCertificate writes the extensions in this order.
  const extensions = new Extensions([
    extension(id_ce_keyUsage, true, new KeyUsage(KeyUsageFlags.digitalSignature | KeyUsageFlags.keyEncipherment | KeyUsageFlags.keyAgreement | KeyUsageFlags.keyCertSign)),
    extension(id_ce_extKeyUsage, false, new ExtendedKeyUsage([id_kp_clientAuth, id_kp_serverAuth])),
    extension(id_ce_basicConstraints, true, new BasicConstraints({ cA: true })),
    // Go's choice for a CA without one: the SHA-1 of the public key's bits (RFC 5280 4.2.1.2).
    extension(id_ce_subjectKeyIdentifier, false, new SubjectKeyIdentifier(createHash("sha1").update(new Uint8Array(spki.subjectPublicKey)).digest())),
    extension(id_ce_subjectAltName, false, new SubjectAlternativeName([new GeneralName({ dNSName: "localhost" })])),
  ]);
  const signatureAlgorithm = new AlgorithmIdentifier({ algorithm: id_ecdsaWithSHA512 });
  const tbsCertificate = new TBSCertificate({
    version: Version.v3,
    serialNumber: derPositiveInteger(randomBytes(16)), // below 2^128, as Go's
    signature: signatureAlgorithm,
    issuer: name,
    validity: new Validity({ notBefore: new Date(now.getTime() - 30_000), notAfter: new Date(now.getTime() + VALIDITY_HOURS * 3_600_000) }),
    subject: name,
    subjectPublicKeyInfo: spki,
    extensions,
  });
  const signature = sign("sha512", new Uint8Array(AsnConvert.serialize(tbsCertificate)), privateKey);
  return new Uint8Array(AsnConvert.serialize(new Certificate({ tbsCertificate, signatureAlgorithm, signatureValue: new Uint8Array(signature).buffer })));
}

// Go's encoding/base64 StdEncoding as encoding/json applies it to []byte fields (a state
// object's `private`) and as the http backend checks Content-MD5.

const B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/** Go's base64.StdEncoding.EncodeToString (`btoa`, not Node's Buffer: this runs in browsers too). */
export function base64Encode(b: Uint8Array): string {
  const chunks: string[] = [];
  for (let i = 0; i < b.length; i += 0x8000) chunks.push(String.fromCharCode(...b.subarray(i, i + 0x8000)));
  return btoa(chunks.join(""));
}

/**
 * Go's base64.StdEncoding.DecodeString (strict padding; \r and \n are ignored). On failure the
 * error is Go's CorruptInputError text: `illegal base64 data at input byte N`.
 */
export function base64DecodeStrict(s: string): { ok: true; bytes: Uint8Array } | { ok: false; error: string } {
  const clean: number[] = [];
  const at: number[] = [];
  for (let i = 0; i < s.length; i++) {
    const ch = s[i] as string;
    if (ch === "\r" || ch === "\n") continue;
    clean.push(ch.charCodeAt(0));
    at.push(i);
  }
  const bad = (i: number): { ok: false; error: string } => ({ ok: false, error: `illegal base64 data at input byte ${i}` });
  const out: number[] = [];
  for (let q = 0; q < clean.length; q += 4) {
    const vals: number[] = [];
    let pad = 0;
    for (let j = 0; j < 4; j++) {
      const idx = q + j;
      if (idx >= clean.length) {
        if (j === 0) break;
        return bad(at[idx - 1] !== undefined ? s.length : s.length);
      }
      const c = clean[idx] as number;
      if (c === 0x3d) {
        if (j < 2) return bad(at[idx] as number);
        pad++;
        vals.push(0);
        continue;
      }
      if (pad > 0) return bad(at[idx] as number);
      const v = B64.indexOf(String.fromCharCode(c));
      if (v < 0) return bad(at[idx] as number);
      vals.push(v);
    }
    if (vals.length === 0) break;
    if (pad > 0 && q + 4 < clean.length) return bad(at[q + 4] as number);
    const n = ((vals[0] as number) << 18) | ((vals[1] as number) << 12) | ((vals[2] as number) << 6) | (vals[3] as number);
    out.push((n >> 16) & 0xff);
    if (pad < 2) out.push((n >> 8) & 0xff);
    if (pad < 1) out.push(n & 0xff);
  }
  return { ok: true, bytes: Uint8Array.from(out) };
}

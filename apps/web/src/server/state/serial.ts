// Rewrites the top-level "serial" of a state file in place, leaving every other byte alone.
// A rollback must give the old content a new serial; parsing and re-serialising instead would
// round integers beyond 2^53 in resource attributes and reformat the file.

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;

function isSpace(c: number | undefined): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

function isNumberChar(c: number | undefined): boolean {
  return c !== undefined && ((c >= 0x30 && c <= 0x39) || c === 0x2d || c === 0x2b || c === 0x2e || c === 0x65 || c === 0x45);
}

/** Positions [start, end) of every top-level `"serial"` value in a JSON object text. */
function serialValueRanges(text: Buffer): Array<[number, number]> {
  const ranges: Array<[number, number]> = [];
  let depth = 0;
  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text[i]!;
    if (c === QUOTE) {
      const start = i++;
      let escaped = false;
      while (i < n && text[i] !== QUOTE) {
        if (text[i] === BACKSLASH) {
          escaped = true;
          i++;
        }
        i++;
      }
      const end = ++i; // just past the closing quote
      if (depth !== 1) continue;
      const key = escaped ? (JSON.parse(text.toString("utf8", start, end)) as string) : text.toString("utf8", start + 1, end - 1);
      if (key !== "serial") continue;
      let j = i;
      while (isSpace(text[j])) j++;
      if (text[j] !== COLON) continue; // a string value, not a key
      j++;
      while (isSpace(text[j])) j++;
      const valueStart = j;
      while (isNumberChar(text[j])) j++;
      if (j > valueStart) ranges.push([valueStart, j]);
      i = j;
      continue;
    }
    if (c === 0x7b || c === 0x5b) depth++;
    else if (c === 0x7d || c === 0x5d) depth--;
    i++;
  }
  return ranges;
}

export function rewriteSerial(text: Buffer, serial: bigint | number): Buffer {
  const ranges = serialValueRanges(text);
  if (ranges.length === 0) throw new Error("state has no top-level serial");
  const parts: Buffer[] = [];
  const value = Buffer.from(String(serial));
  let at = 0;
  for (const [start, end] of ranges) {
    parts.push(text.subarray(at, start), value);
    at = end;
  }
  parts.push(text.subarray(at));
  return Buffer.concat(parts);
}

/** A dynamic route segment as text; a malformed %-escape is kept as typed instead of throwing. */
export function decodeParam(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

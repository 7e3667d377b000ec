import { ApiError } from "./errors";

/** Reads a request body into a Buffer, refusing (413) anything over `limit` bytes. */
export async function readBody(req: Request, limit: number): Promise<Buffer> {
  const declared = req.headers.get("content-length");
  if (declared !== null && Number(declared) > limit) throw tooLarge(limit);
  if (!req.body) return Buffer.alloc(0);
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = req.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => {});
      throw tooLarge(limit);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks, size);
}

function tooLarge(limit: number): ApiError {
  return new ApiError(413, "Request body too large", `The limit is ${limit} bytes.`);
}

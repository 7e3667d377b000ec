/** An error a client caused or must be told about: becomes a JSON error response. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly detail?: string,
    readonly headers?: Record<string, string>,
  ) {
    super(message);
  }
}

export const badRequest = (message: string, detail?: string) => new ApiError(400, message, detail);
export const unauthorized = (message = "Authentication required", detail?: string) =>
  new ApiError(401, message, detail, { "WWW-Authenticate": 'Basic realm="terrace", charset="UTF-8"' });
export const forbidden = (message = "Permission denied", detail?: string) => new ApiError(403, message, detail);
export const notFound = (message = "Not found", detail?: string) => new ApiError(404, message, detail);
export const conflict = (message: string, detail?: string) => new ApiError(409, message, detail);

import { createHash } from "node:crypto";
import { AppError, isAppError, PROBLEM_JSON, toProblemBody } from "@rpcpulse/config";
import { z } from "zod";

/** Every public API response may be read from any origin (no cookies are involved in reads). */
export const CORS_HEADERS: Record<string, string> = {
  "access-control-allow-origin": "*",
  "access-control-allow-methods": "GET, POST, OPTIONS",
  "access-control-allow-headers": "content-type",
  "access-control-max-age": "86400",
};
/** Shared caches keep a list 15 s and may serve it stale for a minute while refreshing. */
export const PUBLIC_CACHE_CONTROL = "public, s-maxage=15, stale-while-revalidate=60";

export interface PublicApiLogger {
  error(fields: Record<string, unknown>, message: string): void;
}

/**
 * The public API's one error mapping: AppError/zod -> an RFC 9457 problem (application/problem+json,
 * with our `code` and the `error: { code, message, details }` member) with CORS.
 */
export function publicErrorResponse(error: unknown, log?: PublicApiLogger, request?: Request): Response {
  let appError: AppError;
  if (isAppError(error)) appError = error;
  else if (error instanceof z.ZodError) {
    const issues = error.issues.map((i) => ({ path: i.path.join("."), message: i.message }));
    const reason = issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join("; ");
    appError = new AppError("VALIDATION", `Invalid request: ${reason}`, { details: { issues } });
  } else {
    log?.error({ err: error instanceof Error ? error.stack : String(error) }, "public api route failed");
    appError = new AppError("INTERNAL", "Internal error.");
  }
  const headers: Record<string, string> = {
    ...CORS_HEADERS,
    "cache-control": "no-store",
    "content-type": PROBLEM_JSON,
  };
  if (appError.retryAfterSeconds) headers["retry-after"] = String(appError.retryAfterSeconds);
  const instance = request ? new URL(request.url).pathname : undefined;
  return Response.json(toProblemBody(appError, instance), { status: appError.httpStatus, headers });
}

/**
 * JSON text and ETag of a body, computed once per body object: the read services memoise their answer
 * for a few seconds and hand the same object to every request, so text and tag are reused with it.
 */
interface Serialized {
  text: string;
  etag: string;
}
const serialized = new WeakMap<object, Serialized>();
function serialize(body: unknown): Serialized {
  const cached = typeof body === "object" && body !== null ? serialized.get(body) : undefined;
  if (cached) return cached;
  const text = JSON.stringify(body);
  const out = { text, etag: `"${createHash("sha1").update(text).digest("base64url")}"` };
  if (typeof body === "object" && body !== null) serialized.set(body, out);
  return out;
}

/** If-None-Match names this tag (or *): the client's copy is current. */
function notModified(request: Request | undefined, etag: string): boolean {
  const header = request?.headers.get("if-none-match");
  if (!header) return false;
  return header.split(",").some((t) => {
    const tag = t.trim().replace(/^W\//, "");
    return tag === etag || tag === "*";
  });
}

/**
 * Runs a public handler: JSON body with CORS, the public cache policy and an ETag (a matching
 * If-None-Match gets 304 without a body), errors mapped once.
 */
export async function runPublic(
  handler: () => Promise<unknown>,
  options: { log?: PublicApiLogger; status?: number; cache?: boolean; request?: Request } = {},
): Promise<Response> {
  try {
    const { text, etag } = serialize(await handler());
    const headers = {
      ...CORS_HEADERS,
      "content-type": "application/json",
      "cache-control": options.cache === false ? "no-store" : PUBLIC_CACHE_CONTROL,
      etag,
    };
    const status = options.status ?? 200;
    if (status === 200 && notModified(options.request, etag)) return new Response(null, { status: 304, headers });
    return new Response(text, { status, headers });
  } catch (error) {
    return publicErrorResponse(error, options.log, options.request);
  }
}

/** OPTIONS (CORS preflight). */
export function preflightResponse(): Response {
  return new Response(null, { status: 204, headers: { ...CORS_HEADERS, "cache-control": PUBLIC_CACHE_CONTROL } });
}

import { AppError } from "@rpcpulse/config";
import type { Auth } from "./create-auth.js";

/** Request headers worth forwarding to better-auth: session cookie, CSRF/origin evidence, client IP. */
const FORWARDED_HEADERS = [
  "cookie",
  "origin",
  "referer",
  "user-agent",
  "x-forwarded-for",
  "sec-fetch-site",
  "sec-fetch-mode",
  "sec-fetch-dest",
] as const;

export interface AuthEndpointResult<T> {
  data: T;
  /** Raw Set-Cookie values the caller must pass on to the browser. */
  setCookies: string[];
}

/**
 * Call a better-auth endpoint through its HTTP handler rather than `auth.api`, so that server
 * actions get exactly what a browser calling /api/auth gets: the origin check (CSRF), the
 * database rate limiter and the hooks. Throws AppError on any non-2xx answer.
 */
export async function callAuthEndpoint<T>(
  auth: Auth,
  input: { path: `/${string}`; method?: "GET" | "POST"; body?: unknown; headers: Headers },
): Promise<AuthEndpointResult<T>> {
  const ctx = await auth.$context;
  const headers = new Headers();
  for (const name of FORWARDED_HEADERS) {
    const value = input.headers.get(name);
    if (value !== null) headers.set(name, value);
  }
  const method = input.method ?? "POST";
  if (method === "POST") headers.set("content-type", "application/json");
  const request = new Request(`${ctx.baseURL}${input.path}`, {
    method,
    headers,
    ...(method === "POST" ? { body: JSON.stringify(input.body ?? {}) } : {}),
  });
  const response = await auth.handler(request);
  const text = await response.text();
  const data = parseJson(text);
  if (!response.ok) throw toAppError(response, data);
  return { data: data as T, setCookies: response.headers.getSetCookie() };
}

function parseJson(text: string): unknown {
  if (!text) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function toAppError(response: Response, data: unknown): AppError {
  const body = (typeof data === "object" && data !== null ? data : {}) as { message?: unknown; code?: unknown };
  const message =
    typeof body.message === "string" && body.message ? body.message : response.statusText || "Request failed";
  const code = typeof body.code === "string" ? body.code : undefined;
  const details = code ? { reason: code } : undefined;
  // better-auth answers 400 for "not found" lookups (MEMBER_NOT_FOUND, INVITATION_NOT_FOUND...).
  if (code?.endsWith("NOT_FOUND")) return new AppError("NOT_FOUND", message, { details });
  switch (response.status) {
    case 400:
    case 422:
      return new AppError("VALIDATION", message, { details });
    case 401:
      return new AppError("UNAUTHENTICATED", message, { details });
    case 403:
      return new AppError("FORBIDDEN", message, { details });
    case 404:
      return new AppError("NOT_FOUND", message, { details });
    case 409:
      return new AppError("CONFLICT", message, { details });
    case 413:
      return new AppError("PAYLOAD_TOO_LARGE", message, { details });
    case 429: {
      const retry = Number(response.headers.get("x-retry-after"));
      return new AppError("RATE_LIMITED", "Too many attempts. Please wait and try again.", {
        ...(Number.isFinite(retry) && retry > 0 ? { retryAfterSeconds: retry } : {}),
      });
    }
    default:
      return new AppError("INTERNAL", "The authentication service failed.", { details });
  }
}

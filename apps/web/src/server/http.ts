import "server-only";
import { AppError, isAppError, PROBLEM_JSON, toProblemBody } from "@rpcpulse/config";
import { getSessionInfo, type SessionInfo } from "@rpcpulse/auth";
import { resolveServiceContext, type ServiceContext } from "@rpcpulse/services/context";
import { z } from "zod";
import { getRuntime } from "./runtime.js";
import { readBearerToken, resolveApiKeyContext, type OrgAccessOptions } from "./api-key-auth.js";

/** Largest JSON body a route handler reads. */
export const MAX_JSON_BODY_BYTES = 16 * 1024;

type RouteContext<P> = { params: Promise<P> };
export type RouteReply = { status?: number; body: unknown; headers?: Record<string, string> };

/**
 * The one adapter for JSON route handlers: runs the handler, maps AppError (and zod errors) to an
 * RFC 9457 problem (application/problem+json) with its HTTP status, logs anything unexpected as a 500.
 */
export function withRoute<P>(handler: (request: Request, params: P) => Promise<RouteReply>) {
  return async (request: Request, context: RouteContext<P>): Promise<Response> => {
    const started = performance.now();
    let response: Response;
    try {
      const reply = await handler(request, await context.params);
      response = Response.json(reply.body, {
        status: reply.status ?? 200,
        headers: { "cache-control": "no-store", ...reply.headers },
      });
    } catch (error) {
      response = errorResponse(error, request);
    }
    getRuntime().metrics.observeRequest(
      routeTemplate(new URL(request.url).pathname),
      request.method,
      response.status,
      (performance.now() - started) / 1000,
    );
    return response;
  };
}

/** AppError/zod/anything -> `application/problem+json` (RFC 9457, with our `code` and `error` members). */
export function errorResponse(error: unknown, request?: Request): Response {
  let appError: AppError;
  if (isAppError(error)) appError = error;
  else if (error instanceof z.ZodError) {
    appError = new AppError("VALIDATION", "Invalid request.", {
      details: { issues: error.issues.map((i) => ({ path: i.path.join("."), message: i.message })) },
    });
  } else {
    getRuntime().logger.error({ err: error instanceof Error ? error.stack : String(error) }, "route failed");
    appError = new AppError("INTERNAL", "Internal error.");
  }
  const headers: Record<string, string> = { "cache-control": "no-store", "content-type": PROBLEM_JSON };
  if (appError.retryAfterSeconds) headers["retry-after"] = String(appError.retryAfterSeconds);
  const instance = request ? new URL(request.url).pathname : undefined;
  return Response.json(toProblemBody(appError, instance), { status: appError.httpStatus, headers });
}

/** Read a JSON body of at most `maxBytes`, counting the bytes actually received. */
export async function readJsonBody<S extends z.ZodType>(
  request: Request,
  schema: S,
  maxBytes = MAX_JSON_BODY_BYTES,
): Promise<z.infer<S>> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > maxBytes) throw new AppError("PAYLOAD_TOO_LARGE", `Body larger than ${maxBytes} bytes.`);
  const type = request.headers.get("content-type") ?? "";
  if (!type.toLowerCase().startsWith("application/json"))
    throw new AppError("VALIDATION", "Expected application/json.");
  const reader = request.body?.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (reader) {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) {
        await reader.cancel();
        throw new AppError("PAYLOAD_TOO_LARGE", `Body larger than ${maxBytes} bytes.`);
      }
      chunks.push(value);
    }
  }
  let json: unknown;
  try {
    json = JSON.parse(Buffer.concat(chunks).toString("utf8"));
  } catch {
    throw new AppError("VALIDATION", "Body is not valid JSON.");
  }
  return schema.parse(json);
}

/**
 * Cookie-authenticated mutations must come from our own origin (CSRF). SameSite=Lax already keeps
 * the cookie off cross-site POSTs; this is the second, explicit check.
 */
export function assertSameOrigin(request: Request): void {
  if (request.method === "GET" || request.method === "HEAD") return;
  const expected = new URL(getRuntime().env.APP_BASE_URL).origin;
  const origin = request.headers.get("origin");
  if (origin !== expected) throw new AppError("FORBIDDEN", "Cross-origin request refused.");
}

export async function requireApiSession(request: Request): Promise<SessionInfo> {
  const session = await getSessionInfo(getRuntime().auth, request.headers);
  if (!session) throw new AppError("UNAUTHENTICATED", "Sign in first.");
  return session;
}

/**
 * Who acts on /api/orgs/[orgId]: an organization API key (`Authorization: Bearer rpk_...`: its own
 * organization only, read keys GET only, its own rate limit; see api-key-auth.ts) or a signed-in
 * member (origin check + membership). Another organization is NOT_FOUND either way.
 */
export async function requireApiOrgContext(
  request: Request,
  organizationId: string,
  options: OrgAccessOptions = {},
): Promise<{ session: SessionInfo | null; ctx: ServiceContext }> {
  const bearer = readBearerToken(request);
  if (bearer !== undefined) {
    return { session: null, ctx: await resolveApiKeyContext(request, bearer, organizationId, options) };
  }
  assertSameOrigin(request);
  const session = await requireApiSession(request);
  const ctx = await resolveServiceContext({ prisma: getRuntime().prisma }, { userId: session.userId, organizationId });
  return { session, ctx };
}

/**
 * A path as a metrics label: segments that are ids (UUIDs, long random tokens, numbers) become
 * `:id`, so `/api/orgs/org_x/nodes/<uuid>` counts as one route and labels stay bounded.
 */
export function routeTemplate(pathname: string): string {
  return pathname
    .split("/")
    .map((segment) =>
      /^[0-9a-f-]{32,36}$/i.test(segment) || /^\d+$/.test(segment) || (/\d/.test(segment) && segment.length >= 12)
        ? ":id"
        : segment,
    )
    .join("/");
}

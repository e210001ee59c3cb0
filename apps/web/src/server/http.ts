import "server-only";
import { AppError, isAppError, toErrorBody } from "@rpcpulse/config";
import { getSessionInfo, type SessionInfo } from "@rpcpulse/auth";
import { resolveServiceContext, type ServiceContext } from "@rpcpulse/services";
import { z } from "zod";
import { getRuntime } from "./runtime.js";

/** Largest JSON body a route handler reads. */
export const MAX_JSON_BODY_BYTES = 16 * 1024;

type RouteContext<P> = { params: Promise<P> };
export type RouteReply = { status?: number; body: unknown; headers?: Record<string, string> };

/**
 * The one adapter for JSON route handlers: runs the handler, maps AppError (and zod errors) to
 * `{ error: { code, message } }` with its HTTP status, logs anything unexpected as a 500.
 */
export function withRoute<P>(handler: (request: Request, params: P) => Promise<RouteReply>) {
  return async (request: Request, context: RouteContext<P>): Promise<Response> => {
    try {
      const reply = await handler(request, await context.params);
      return Response.json(reply.body, {
        status: reply.status ?? 200,
        headers: { "cache-control": "no-store", ...reply.headers },
      });
    } catch (error) {
      return errorResponse(error);
    }
  };
}

export function errorResponse(error: unknown): Response {
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
  const headers: Record<string, string> = { "cache-control": "no-store" };
  if (appError.retryAfterSeconds) headers["retry-after"] = String(appError.retryAfterSeconds);
  return Response.json(toErrorBody(appError), { status: appError.httpStatus, headers });
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

/** Session + origin check + membership of the organization in the URL (404 when not a member). */
export async function requireApiOrgContext(
  request: Request,
  organizationId: string,
): Promise<{ session: SessionInfo; ctx: ServiceContext }> {
  assertSameOrigin(request);
  const session = await requireApiSession(request);
  const ctx = await resolveServiceContext({ prisma: getRuntime().prisma }, { userId: session.userId, organizationId });
  return { session, ctx };
}

import { AppError } from "@rpcpulse/config";
import { errorResponse } from "@/server/http.js";
import { getRuntime } from "@/server/runtime.js";

/** better-auth's own endpoints (/api/auth/*): origin check, rate limits and hooks all apply here. */
const MAX_AUTH_BODY_BYTES = 16 * 1024;

async function handle(request: Request): Promise<Response> {
  if (request.method === "POST") {
    const declared = request.headers.get("content-length");
    if (declared === null || Number(declared) > MAX_AUTH_BODY_BYTES) {
      // Buffer with a cap: better-auth reads the whole body itself.
      const body = await request.arrayBuffer().catch(() => new ArrayBuffer(0));
      if (body.byteLength > MAX_AUTH_BODY_BYTES) {
        return errorResponse(new AppError("PAYLOAD_TOO_LARGE", `Body larger than ${MAX_AUTH_BODY_BYTES} bytes.`));
      }
      request = new Request(request, { body });
    }
  }
  return getRuntime().auth.handler(request);
}

export const GET = handle;
export const POST = handle;
export const dynamic = "force-dynamic";

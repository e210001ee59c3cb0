import { buildOpenApiDocument } from "../_lib/openapi.js";
import { preflightResponse, runPublic } from "../_lib/public-api.js";

export const dynamic = "force-static";

const document = buildOpenApiDocument();

/** GET /api/v1/openapi.json: OpenAPI 3.1 document generated from the zod response schemas. */
export function GET(): Promise<Response> {
  return runPublic(async () => document);
}

export const OPTIONS = preflightResponse;

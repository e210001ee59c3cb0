import { buildOrgOpenApiDocument } from "../_lib/org-openapi.js";

export const dynamic = "force-static";

const document = buildOrgOpenApiDocument();

/** GET /api/orgs/openapi.json: OpenAPI 3.1 document of the organization API (public; no data). */
export function GET(): Response {
  return Response.json(document, { headers: { "cache-control": "public, max-age=300" } });
}

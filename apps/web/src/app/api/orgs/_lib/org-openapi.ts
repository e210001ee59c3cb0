import { ErrorResponse } from "@rpcpulse/services/directory";
import { z } from "zod";
import type { Access, Operation } from "./org-operation.js";
import { ORG_ADMIN_OPERATIONS } from "./org-operations-admin.js";
import { FLEET_OPERATIONS } from "./org-operations-fleet.js";

const inputSchema = (s: z.ZodType | Record<string, unknown>) =>
  s instanceof z.ZodType ? z.toJSONSchema(s, { target: "draft-2020-12", io: "input", unrepresentable: "any" }) : s;

const anyObject = { type: "object", additionalProperties: true };

/** Every operation of /api/orgs/[orgId]/...; test/org-openapi.test.ts checks it against the route files. */
export const ORG_OPERATIONS: Operation[] = [...FLEET_OPERATIONS, ...ORG_ADMIN_OPERATIONS];

const ACCESS_NOTE: Record<Access, string> = {
  read: "Any member; any API key (read or write).",
  write: "Admins and owners; write API keys. A read key gets 403.",
  session: "Signed-in members only (admins for changes); API keys get 403.",
};
const SECURITY: Record<Access, Array<Record<string, string[]>>> = {
  read: [{ apiKey: [] }, { session: [] }],
  write: [{ apiKey: [] }, { session: [] }],
  session: [{ session: [] }],
};
const problem = (description: string) => ({
  description,
  content: { "application/problem+json": { schema: { $ref: "#/components/schemas/Problem" } } },
});

function describeOperation(op: Operation) {
  const params = [...op.path.matchAll(/\{(\w+)\}/g)].map((m) => ({
    name: m[1],
    in: "path",
    required: true,
    schema: { type: "string" },
  }));
  return {
    operationId: op.id,
    summary: op.summary,
    description: ACCESS_NOTE[op.access],
    "x-access": op.access,
    security: SECURITY[op.access],
    parameters: params,
    ...(op.body
      ? { requestBody: { required: true, content: { "application/json": { schema: inputSchema(op.body) } } } }
      : {}),
    responses: {
      [String(op.status ?? 200)]: { description: "Done", content: { "application/json": { schema: anyObject } } },
      "400": problem("Invalid request; `detail` says why."),
      "401": problem("No or invalid session or API key."),
      "403": problem("Role, key scope or session-only route."),
      "404": problem("Not found, or not this caller's organization."),
      "429": problem("Rate limit of the API key; see Retry-After."),
    },
  };
}

/** OpenAPI 3.1 document of the organization API (/api/orgs/openapi.json), bodies from the zod schemas. */
export function buildOrgOpenApiDocument() {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of ORG_OPERATIONS) (paths[op.path] ??= {})[op.method] = describeOperation(op);
  return {
    openapi: "3.1.0",
    info: {
      title: "RPC Pulse organization API",
      version: "1.0.0",
      description:
        "Automation of one organization: nodes and agent tokens, alert rules and channels, status pages, incidents, " +
        "maintenance, claims and suggestions. Authenticate with `Authorization: Bearer rpk_...` (an organization API " +
        "key from Settings → API keys) or a browser session. Errors are RFC 9457 problems (application/problem+json).",
    },
    jsonSchemaDialect: "https://json-schema.org/draft/2020-12/schema",
    paths,
    components: {
      securitySchemes: {
        apiKey: { type: "http", scheme: "bearer", bearerFormat: "rpk_<16 hex>_<43 base64url>" },
        session: { type: "apiKey", in: "cookie", name: "rpcpulse.session_token" },
      },
      schemas: {
        Problem: z.toJSONSchema(ErrorResponse, { target: "draft-2020-12", io: "output", unrepresentable: "any" }),
      },
    },
  };
}

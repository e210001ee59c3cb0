import {
  BeaconResponse,
  ChainlistRpcsResponse,
  ChainsResponse,
  DIRECTORY_CAPABILITIES,
  EndpointDetailResponse,
  EndpointHistoryResponse,
  ErpcUpstreamsResponse,
  ErrorResponse,
  RankedListResponse,
  SubmitEndpointInput,
  SubmitEndpointResponse,
} from "@rpcpulse/services/directory";
import { SCORING } from "@rpcpulse/prober";
import { z } from "zod";

const schema = (s: z.ZodType) => z.toJSONSchema(s, { target: "draft-2020-12", io: "output", unrepresentable: "any" });

const json = (ref: string, description: string) => ({
  description,
  content: { "application/json": { schema: { $ref: `#/components/schemas/${ref}` } } },
});
const problem = (description: string) => ({
  description,
  content: { "application/problem+json": { schema: { $ref: "#/components/schemas/Error" } } },
});
const errors = {
  "400": problem("Invalid parameters (RFC 9457 problem); `detail` gives the reason."),
  "404": problem("Unknown network or endpoint."),
};
const param = (name: string, where: "path" | "query", s: Record<string, unknown>, description: string) => ({
  name,
  in: where,
  required: where === "path",
  description,
  schema: s,
});

/** Query of the Chainlist and eRPC shapes (CompatQuery in @rpcpulse/services). */
const compatParams = [
  param("network", "query", { type: "string" }, "Only this EVM network (e.g. ethereum-mainnet); default every one."),
  param("window", "query", { type: "string", enum: ["1h", "24h", "7d"], default: "24h" }, "Ranking window."),
];

/** OpenAPI 3.1 document of the public directory API, generated from the zod response schemas. */
export function buildOpenApiDocument(serverUrl?: string) {
  return {
    openapi: "3.1.0",
    info: {
      title: "RPC Pulse public endpoint directory",
      version: "1.0.0",
      description: `Ranked public RPC endpoints per chain. Scoring version ${SCORING.version}; weights ${JSON.stringify(SCORING.weights)}. Responses are cached 15 s (stale-while-revalidate 60 s) and readable from any origin.`,
    },
    ...(serverUrl ? { servers: [{ url: serverUrl }] } : {}),
    jsonSchemaDialect: "https://json-schema.org/draft/2020-12/schema",
    paths: {
      "/api/v1/chains": {
        get: {
          operationId: "listChains",
          summary: "Networks with endpoint counts",
          responses: { "200": json("ChainsResponse", "Networks") },
        },
      },
      "/api/v1/chains/{network}/endpoints": {
        get: {
          operationId: "listRankedEndpoints",
          summary: "Ranked endpoints of a network (also carries PeakD Beacon's fields)",
          parameters: [
            param("network", "path", { type: "string" }, "Network slug: hive, steem, ethereum-mainnet, polkadot, ..."),
            param("region", "query", { type: "string" }, "Vantage region; default all regions combined."),
            param(
              "capability",
              "query",
              { type: "string" },
              `Comma-separated, all required: ${DIRECTORY_CAPABILITIES.join(", ")}.`,
            ),
            param("minScore", "query", { type: "number", minimum: 0, maximum: 100 }, "Minimum score."),
            param("window", "query", { type: "string", enum: ["1h", "24h", "7d"], default: "24h" }, "Scoring window."),
          ],
          responses: { "200": json("RankedListResponse", "Ranked list"), ...errors },
        },
      },
      "/api/v1/beacon/{network}": {
        get: {
          operationId: "listBeaconNodes",
          summary: "The ranked list in PeakD Beacon's /api/nodes shape",
          parameters: [param("network", "path", { type: "string" }, "Network slug")],
          responses: { "200": json("BeaconResponse", "Beacon-compatible nodes"), ...errors },
        },
      },
      "/api/v1/chainlist/rpcs.json": {
        get: {
          operationId: "listChainlistRpcs",
          summary:
            "EVM networks' ranked RPC URLs keyed by chain id (Chainlist extraRpcs shape; tracking null = unknown)",
          parameters: compatParams,
          responses: { "200": json("ChainlistRpcsResponse", "RPCs by chain id"), ...errors },
        },
      },
      "/api/v1/erpc/upstreams.json": {
        get: {
          operationId: "listErpcUpstreams",
          summary: "EVM networks' ranked endpoints as eRPC upstreams (for projects[].upstreams)",
          parameters: compatParams,
          responses: { "200": json("ErpcUpstreamsResponse", "eRPC upstreams"), ...errors },
        },
      },
      "/api/v1/endpoints": {
        post: {
          operationId: "submitEndpoint",
          summary: "Submit a public endpoint (signed in; starts on probation)",
          requestBody: {
            required: true,
            content: { "application/json": { schema: { $ref: "#/components/schemas/SubmitEndpointInput" } } },
          },
          responses: {
            "201": json("SubmitEndpointResponse", "Listed on probation"),
            "401": problem("Not signed in"),
            "409": problem("Already listed"),
            "429": problem("Too many submissions"),
            ...errors,
            "400": json(
              "Error",
              "Invalid input, or a URL the prober would refuse: its name does not resolve, or resolves to a loopback, private, link-local, metadata or reserved address (`error.message` gives the reason).",
            ),
            "503": problem("The URL's name could not be resolved for now; retry later."),
          },
        },
      },
      "/api/v1/endpoints/{id}": {
        get: {
          operationId: "getEndpoint",
          summary: "Endpoint detail: capabilities and scores per window and region",
          parameters: [param("id", "path", { type: "string", format: "uuid" }, "Endpoint id")],
          responses: { "200": json("EndpointDetailResponse", "Endpoint"), ...errors },
        },
      },
      "/api/v1/endpoints/{id}/history": {
        get: {
          operationId: "getEndpointHistory",
          summary: "Probe history (availability, latency, head)",
          parameters: [
            param("id", "path", { type: "string", format: "uuid" }, "Endpoint id"),
            param("range", "query", { type: "string", enum: ["1h", "24h", "7d", "30d"], default: "24h" }, "Range"),
          ],
          responses: { "200": json("EndpointHistoryResponse", "History"), ...errors },
        },
      },
    },
    components: {
      schemas: {
        ChainsResponse: schema(ChainsResponse),
        RankedListResponse: schema(RankedListResponse),
        BeaconResponse: schema(BeaconResponse),
        ChainlistRpcsResponse: schema(ChainlistRpcsResponse),
        ErpcUpstreamsResponse: schema(ErpcUpstreamsResponse),
        EndpointDetailResponse: schema(EndpointDetailResponse),
        EndpointHistoryResponse: schema(EndpointHistoryResponse),
        SubmitEndpointInput: z.toJSONSchema(SubmitEndpointInput, { target: "draft-2020-12", io: "input" }),
        SubmitEndpointResponse: schema(SubmitEndpointResponse),
        Error: schema(ErrorResponse),
      },
    },
  };
}

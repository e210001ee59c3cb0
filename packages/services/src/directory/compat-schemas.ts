import { z } from "zod";
import { DirectoryWindow, RankedEndpoint } from "./schemas.js";

/**
 * The directory in shapes other tools already read (GET /api/v1/chainlist/rpcs.json and
 * GET /api/v1/erpc/upstreams.json). Only networks with an EIP-155 chain id appear: both formats key
 * everything by it. Declared once: the routes are schema-tested and the OpenAPI document is generated
 * from these.
 */

const isoDate = z.iso.datetime();

export const CompatQuery = z
  .object({
    network: z
      .string()
      .regex(/^[a-z0-9-]{1,64}$/, "a network slug such as ethereum-mainnet")
      .optional()
      .meta({ description: "Only this network (an EVM network of the catalogue); default all of them." }),
    window: DirectoryWindow.default("24h").meta({ description: "Ranking window the order comes from." }),
  })
  .meta({ description: "Unknown parameters are ignored (as on the other public routes)." });
export type CompatQuery = z.input<typeof CompatQuery>;

export const ChainlistTracking = z.enum(["none", "limited", "yes", "unspecified"]).nullable().meta({
  description:
    "Chainlist's privacy field: what the operator says it records of callers. null = unknown (RPC Pulse does not audit privacy policies; no operator statement is on record).",
});

export const ChainlistRpc = z
  .object({
    url: z.string().meta({ description: "HTTP(S) or WebSocket URL." }),
    tracking: ChainlistTracking,
    trackingDetails: z.string().nullable(),
    isOpenSource: z
      .boolean()
      .nullable()
      .meta({ description: "Whether the node software is open source; null = unknown." }),
    rpcpulse: z
      .object({
        endpointId: z.string().uuid(),
        name: z.string(),
        provider: z.string().nullable(),
        rank: z.number().int().positive(),
        score: z.number().min(0).max(100),
        status: z.enum(["active", "probation"]).meta({ description: "Listing status (dead endpoints are left out)." }),
        health: RankedEndpoint.shape.health,
        operatorVerified: z.boolean(),
        latencyP50Ms: z.number().nullable(),
        uptime24h: z.number().nullable(),
      })
      .strict()
      .meta({ description: "RPC Pulse's measurements of the endpoint behind this URL." }),
  })
  .strict();
export type ChainlistRpc = z.infer<typeof ChainlistRpc>;

export const ChainlistChain = z
  .object({
    name: z.string(),
    chainId: z.number().int().positive(),
    network: z.string().meta({ description: "RPC Pulse network slug." }),
    testnet: z.boolean(),
    window: DirectoryWindow,
    updatedAt: isoDate.nullable().meta({ description: "Newest ranking snapshot of the network." }),
    rpcs: z.array(ChainlistRpc).meta({ description: "Best first: each endpoint's HTTP URL, then its WebSocket URL." }),
  })
  .strict();

export const ChainlistRpcsResponse = z
  .record(z.string().regex(/^[1-9][0-9]*$/), ChainlistChain)
  .meta({ description: "Keyed by EIP-155 chain id (as a string), like Chainlist's extraRpcs." });
export type ChainlistRpcsResponse = z.infer<typeof ChainlistRpcsResponse>;

export const ErpcUpstream = z
  .object({
    id: z.string().meta({ description: "Stable per endpoint: rpcpulse-<endpoint id>." }),
    endpoint: z.string(),
    type: z.literal("evm"),
    group: z.literal("fallback").optional().meta({
      description: "Set for endpoints on probation or degraded: eRPC uses them when the others are not healthy.",
    }),
    evm: z.object({ chainId: z.number().int().positive() }).strict(),
    jsonRpc: z
      .object({ supportsBatch: z.boolean() })
      .strict()
      .optional()
      .meta({ description: "Present when the capability check saw JSON-RPC batches work." }),
  })
  .strict();
export type ErpcUpstream = z.infer<typeof ErpcUpstream>;

export const ErpcUpstreamsResponse = z
  .object({
    window: DirectoryWindow,
    updatedAt: isoDate.nullable().meta({ description: "Newest ranking snapshot among the listed networks." }),
    upstreams: z
      .array(ErpcUpstream)
      .meta({ description: "Paste under projects[].upstreams of erpc.yaml / erpc.ts; best first per chain." }),
  })
  .strict();
export type ErpcUpstreamsResponse = z.infer<typeof ErpcUpstreamsResponse>;

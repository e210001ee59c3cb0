import { z } from "zod";
import { AppError } from "@rpcpulse/config";
import { API_FAMILIES, CHAINS, findNetwork, NETWORKS } from "@rpcpulse/domain";
import { HIVE_FLAVOR, STEEM_FLAVOR } from "./families/hive-assets.js";

function witnessesOf(chain: "hive" | "steem"): readonly string[] {
  return chain === "hive" ? HIVE_FLAVOR.witnesses : STEEM_FLAVOR.witnesses;
}

/** Schema of a simnet config file (JSON) and of the node list the CLI flags build. */
export const latencySchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("fixed"), ms: z.number().min(0) }).strict(),
  z
    .object({ kind: z.literal("uniform"), minMs: z.number().min(0), maxMs: z.number().min(0) })
    .strict()
    .refine((v) => v.maxMs >= v.minMs, { message: "maxMs must be >= minMs", path: ["maxMs"] }),
  z
    .object({ kind: z.literal("lognormal"), medianMs: z.number().positive(), p95Ms: z.number().positive() })
    .strict()
    .refine((v) => v.p95Ms >= v.medianMs, { message: "p95Ms must be >= medianMs", path: ["p95Ms"] }),
]);

export const ERROR_KINDS = [
  "http-500",
  "http-502",
  "http-503",
  "http-504",
  "jsonrpc-internal",
  "connection-reset",
] as const;
export type ErrorKind = (typeof ERROR_KINDS)[number];

const stallSchema = z
  .object({
    /** Head freezes once it reaches this height. */
    atHeight: z.number().int().positive().optional(),
    /** Head freezes this many blocks after the node starts. */
    afterBlocks: z.number().int().min(0).optional(),
    /** Head freezes at the height the network had at this instant (ISO 8601). */
    atTime: z.iso.datetime({ offset: true }).optional(),
  })
  .strict()
  .refine((s) => [s.atHeight, s.afterBlocks, s.atTime].filter((v) => v !== undefined).length === 1, {
    message: "give exactly one of atHeight, afterBlocks, atTime",
  });

const nodeSchema = z
  .object({
    name: z.string().regex(/^[a-z0-9][a-z0-9._-]{0,62}$/i, "letters, digits, dot, dash, underscore; max 63"),
    family: z.enum(API_FAMILIES),
    network: z.string().refine((slug) => findNetwork(slug) !== undefined, {
      message: `unknown network; known: ${NETWORKS.map((n) => n.slug).join(", ")}`,
    }),
    port: z.number().int().min(0).max(65535).default(0),
    latency: latencySchema.default({ kind: "fixed", ms: 0 }),
    lagBlocks: z.number().int().min(0).default(0),
    stall: stallSchema.optional(),
    errorRate: z.number().min(0).max(1).default(0),
    errorKind: z.enum(ERROR_KINDS).default("http-503"),
    missingMethods: z.array(z.string().min(1)).default([]),
    rateLimit: z
      .object({ requestsPerSecond: z.number().positive(), burst: z.number().int().positive() })
      .strict()
      .optional(),
    /** Default: on for ethereum and substrate, off for hive and sidecar (sidecar never has it). */
    websocket: z.boolean().optional(),
    clientVersion: z.string().min(1).optional(),
    archive: z.boolean().default(false),
    /** eth_getLogs: widest block range accepted; absent = unlimited (plain geth). */
    getLogsMaxRange: z.number().int().positive().optional(),
    peers: z.number().int().min(0).default(25),
    syncing: z.boolean().default(false),
    /** Load balancer mixing nodes: with this probability a request sees a head depthBlocks older. */
    headFlap: z
      .object({ probability: z.number().min(0).max(1), depthBlocks: z.number().int().positive() })
      .strict()
      .optional(),
    /** Hive/Steem: blocks between head and last irreversible block (default 15-20, varying). */
    irreversibleLagBlocks: z.number().int().min(0).optional(),
    maxBodyBytes: z
      .number()
      .int()
      .positive()
      .default(5 * 1024 * 1024),
    batchLimit: z.number().int().positive().default(1000),
    /** Ethereum: a consensus client's Beacon API beside the node, on its own port (beacon-server.ts). */
    beacon: z
      .object({
        port: z.number().int().min(0).max(65535).default(0),
        lagSlots: z.number().int().min(0).default(0),
        optimistic: z.boolean().default(false),
        elOffline: z.boolean().default(false),
        peers: z.number().int().min(0).default(80),
        version: z.string().min(1).default("Lighthouse/v7.1.0-8d1b2f8/x86_64-linux"),
        /** It drives this node (the node's own consensus client); false: it drives another EL. */
        drivesNode: z.boolean().default(true),
        /** Stuck from the start (its head stops; the node it drives stands still with it): the demo's. */
        stalled: z.boolean().default(false),
      })
      .strict()
      .optional(),
  })
  .strict()
  .superRefine((node, ctx) => {
    const net = findNetwork(node.network);
    if (!net) return;
    const chain = CHAINS.find((c) => c.slug === net.chain);
    if (chain && !chain.families.includes(node.family)) {
      ctx.addIssue({
        code: "custom",
        path: ["family"],
        message: `network ${node.network} has no ${node.family} API (it has ${chain.families.join(", ")})`,
      });
    }
    if (node.beacon && node.family !== "ethereum") {
      ctx.addIssue({ code: "custom", path: ["beacon"], message: "a Beacon API sits beside an ethereum node only" });
    }
    if (node.family === "sidecar" && node.websocket) {
      ctx.addIssue({ code: "custom", path: ["websocket"], message: "sidecar is REST only; it has no WebSocket" });
    }
  });

/** A Hive/Steem witness whose trouble the demo shows (families/hive-witnesses.ts). */
const witnessSchema = z
  .object({
    network: z.string(),
    account: z.string().min(1).max(16),
    missEveryMinutes: z.number().positive().optional(),
    feedStaleHours: z.number().min(0).optional(),
    runningVersion: z
      .string()
      .regex(/^\d+\.\d+\.\d+$/)
      .optional(),
    hardforkVote: z
      .string()
      .regex(/^\d+\.\d+\.\d+$/)
      .optional(),
    disabled: z.boolean().optional(),
  })
  .strict();

/** A Polkadot/Kusama validator whose trouble the demo shows (families/substrate-validators.ts). */
const validatorSchema = z
  .object({
    network: z.string(),
    /** SS58 stash of one of the network's simulated validators (ValidatorBook.address(i)). */
    address: z.string().min(46).max(48),
    offline: z.boolean().optional(),
    pointsRate: z.number().min(0).max(2).optional(),
    unclaimedEras: z.number().int().min(0).max(84).optional(),
  })
  .strict();

export const simnetConfigSchema = z
  .object({
    /** Seeds every derived hash and every random draw. */
    seed: z.string().min(1).default("rpcpulse-simnet"),
    /** Instant the anchor heights refer to (ISO 8601); default 2026-01-01T00:00:00Z. */
    anchorTime: z.iso.datetime({ offset: true }).optional(),
    /** Per-network overrides of the anchor height. */
    networks: z.record(z.string(), z.object({ anchorHeight: z.number().int().positive() }).strict()).default({}),
    /** Interval at which WebSocket subscriptions look for new heads (real time). */
    headPollMs: z.number().int().positive().default(250),
    nodes: z.array(nodeSchema).min(1, "at least one node"),
    witnesses: z.array(witnessSchema).default([]),
    validators: z.array(validatorSchema).default([]),
    /** Loopback HTTP control of the running simnet (control-server.ts); absent = none. */
    controlPort: z.number().int().min(0).max(65535).optional(),
  })
  .strict()
  .superRefine((cfg, ctx) => {
    const names = new Set<string>();
    const ports = new Set<number>();
    cfg.nodes.forEach((node, i) => {
      if (names.has(node.name))
        ctx.addIssue({ code: "custom", path: ["nodes", i, "name"], message: `duplicate name ${node.name}` });
      names.add(node.name);
      if (node.port !== 0 && ports.has(node.port)) {
        ctx.addIssue({ code: "custom", path: ["nodes", i, "port"], message: `port ${node.port} used twice` });
      }
      ports.add(node.port);
    });
    cfg.witnesses.forEach((w, i) => {
      const chain = findNetwork(w.network)?.chain;
      if (chain !== "hive" && chain !== "steem") {
        ctx.addIssue({
          code: "custom",
          path: ["witnesses", i, "network"],
          message: "witnesses exist on hive/steem only",
        });
      } else if (!witnessesOf(chain).includes(w.account)) {
        ctx.addIssue({
          code: "custom",
          path: ["witnesses", i, "account"],
          message: `not a scheduled witness of ${w.network}; known: ${witnessesOf(chain).join(", ")}`,
        });
      }
    });
    cfg.validators.forEach((v, i) => {
      const chain = findNetwork(v.network)?.chain;
      if (chain !== "polkadot") {
        ctx.addIssue({
          code: "custom",
          path: ["validators", i, "network"],
          message: "validators exist on polkadot/kusama only",
        });
      }
    });
    for (const slug of Object.keys(cfg.networks)) {
      if (!findNetwork(slug)) ctx.addIssue({ code: "custom", path: ["networks", slug], message: "unknown network" });
    }
  });

export type SimnetConfigInput = z.input<typeof simnetConfigSchema>;
export type SimnetConfig = z.output<typeof simnetConfigSchema>;
export type NodeConfigInput = z.input<typeof nodeSchema>;
export type NodeConfig = z.output<typeof nodeSchema>;

/** `nodes[2].latency.p95Ms` style name of an issue path. */
export function formatIssuePath(path: ReadonlyArray<PropertyKey>): string {
  let out = "";
  for (const part of path) out += typeof part === "number" ? `[${part}]` : `${out ? "." : ""}${String(part)}`;
  return out || "(config)";
}

/**
 * Parse a config object; throws AppError("CONFIG") whose message names every bad field.
 * `nameOf` lets the CLI report flags instead of field paths.
 */
export function parseSimnetConfig(
  input: unknown,
  source = "config",
  nameOf: (path: string) => string = (p) => p,
): SimnetConfig {
  const result = simnetConfigSchema.safeParse(input);
  if (result.success) return result.data;
  const fields = result.error.issues.map((issue) => nameOf(formatIssuePath(issue.path)));
  const lines = result.error.issues.map((issue, i) => `${fields[i]}: ${issue.message}`);
  throw new AppError("CONFIG", `Invalid simnet ${source}:\n  ${lines.join("\n  ")}`, { details: { fields } });
}

/**
 * Enroll many nodes through the organization API with an API key (no UI):
 *
 *   RPCPULSE_API_KEY=rpk_... npx tsx scripts/enroll-nodes.ts --app https://pulse.example.org \
 *     --org <organizationId> --count 50 --network hive --api-family hive --client hived \
 *     --rpc-url http://127.0.0.1:8091 [--name-prefix hive] [--concurrency 8] [--out enrolled.json]
 *
 * At most `--concurrency` requests run at once; a 429 waits for its Retry-After and tries again.
 * Progress goes to stderr; the result (node id, name, agent token, ingest URL per node) is written to
 * `--out` (mode 0600: it holds agent tokens) or printed as JSON on stdout. Exit 1 when any node failed,
 * with the API's problem detail for each.
 */
import { writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { z } from "zod";

export interface EnrollOptions {
  app: string;
  organizationId: string;
  apiKey: string;
  count: number;
  network: string;
  apiFamily: string;
  clientName: string;
  rpcUrl: string;
  namePrefix: string;
  concurrency: number;
  onProgress?: (done: number, failed: number, total: number) => void;
}

export interface EnrolledNode {
  nodeId: string;
  name: string;
  token: string;
  ingestUrl: string;
}

export interface EnrollResult {
  enrolled: EnrolledNode[];
  failures: Array<{ name: string; status: number; detail: string }>;
}

const Enrolled = z.object({
  node: z.object({ id: z.string(), name: z.string() }),
  agentToken: z.object({ token: z.string() }),
  ingestUrl: z.string(),
});
const Problem = z.object({ detail: z.string().optional(), title: z.string().optional() }).passthrough();

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function enrollOne(o: EnrollOptions, name: string): Promise<EnrolledNode> {
  const url = new URL(`/api/orgs/${encodeURIComponent(o.organizationId)}/nodes`, o.app);
  for (let attempt = 1; ; attempt++) {
    const res = await fetch(url, {
      method: "POST",
      headers: { authorization: `Bearer ${o.apiKey}`, "content-type": "application/json" },
      body: JSON.stringify({
        name,
        network: o.network,
        apiFamily: o.apiFamily,
        clientName: o.clientName,
        localRpcUrl: o.rpcUrl,
      }),
      signal: AbortSignal.timeout(30_000),
    });
    if (res.status === 429 && attempt < 10) {
      await res.body?.cancel();
      await sleep(Math.min(60, Number(res.headers.get("retry-after") ?? "1") || 1) * 1000);
      continue;
    }
    const text = await res.text();
    if (res.status !== 201) {
      const problem = Problem.safeParse(safeJson(text));
      const detail = problem.success ? (problem.data.detail ?? problem.data.title ?? text) : text.slice(0, 200);
      throw Object.assign(new Error(detail), { status: res.status });
    }
    const body = Enrolled.parse(JSON.parse(text));
    return { nodeId: body.node.id, name: body.node.name, token: body.agentToken.token, ingestUrl: body.ingestUrl };
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Enroll `count` nodes named `<prefix>-<n>` with at most `concurrency` requests in flight. */
export async function enrollNodes(o: EnrollOptions): Promise<EnrollResult> {
  const names = Array.from({ length: o.count }, (_, i) => `${o.namePrefix}-${String(i + 1).padStart(3, "0")}`);
  const result: EnrollResult = { enrolled: [], failures: [] };
  let next = 0;
  const worker = async () => {
    while (next < names.length) {
      const name = names[next++] as string;
      try {
        result.enrolled.push(await enrollOne(o, name));
      } catch (error) {
        const status = (error as { status?: number }).status ?? 0;
        result.failures.push({ name, status, detail: error instanceof Error ? error.message : String(error) });
      }
      o.onProgress?.(result.enrolled.length, result.failures.length, names.length);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(o.concurrency, names.length)) }, worker));
  result.enrolled.sort((a, b) => a.name.localeCompare(b.name));
  return result;
}

const Cli = z.object({
  app: z.url(),
  org: z.string().min(1),
  count: z.coerce.number().int().min(1).max(10_000),
  network: z.string().min(1),
  "api-family": z.string().min(1),
  client: z.string().min(1),
  "rpc-url": z.string().min(1),
  "name-prefix": z.string().min(1).max(40).default("node"),
  concurrency: z.coerce.number().int().min(1).max(64).default(8),
  out: z.string().optional(),
});
const KeyEnv = z.object({ RPCPULSE_API_KEY: z.string().regex(/^rpk_/, "must be an organization API key (rpk_...)") });

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: Object.fromEntries(Object.keys(Cli.shape).map((k) => [k, { type: "string" as const }])),
  });
  const args = Cli.safeParse(values);
  const env = KeyEnv.safeParse(process.env);
  if (!args.success || !env.success) {
    const issues = [...(args.error?.issues ?? []), ...(env.error?.issues ?? [])];
    process.stderr.write(
      `enroll-nodes: ${issues.map((i) => `${i.path.join(".") || "argument"}: ${i.message}`).join("; ")}\n`,
    );
    process.exit(2);
  }
  const a = args.data;
  const started = Date.now();
  const result = await enrollNodes({
    app: a.app,
    organizationId: a.org,
    apiKey: env.data.RPCPULSE_API_KEY,
    count: a.count,
    network: a.network,
    apiFamily: a["api-family"],
    clientName: a.client,
    rpcUrl: a["rpc-url"],
    namePrefix: a["name-prefix"],
    concurrency: a.concurrency,
    onProgress: (done, failed, total) => process.stderr.write(`\renrolled ${done}/${total}, failed ${failed}`),
  });
  process.stderr.write(`\n${result.enrolled.length} enrolled in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  for (const f of result.failures) process.stderr.write(`  ${f.name}: HTTP ${f.status} ${f.detail}\n`);
  const json = JSON.stringify(result.enrolled, null, 2);
  if (a.out) writeFileSync(a.out, `${json}\n`, { mode: 0o600 });
  else process.stdout.write(`${json}\n`);
  process.exit(result.failures.length > 0 ? 1 : 0);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((error: unknown) => {
    process.stderr.write(`enroll-nodes: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  });
}

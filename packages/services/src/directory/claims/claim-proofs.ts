import type { AgentClaimEvidence } from "@rpcpulse/db";
import { CLAIM_DNS_LABEL, CLAIM_TXT_PREFIX, dnsHostOf } from "./claim-view.js";

/** TXT lookup (node:dns `resolveTxt` shape: one array of chunks per record). Injectable for tests. */
export type TxtResolver = (name: string) => Promise<string[][]>;

export type ProofResult = { ok: true; nodeId?: string } | { ok: false; reason: string };

const DNS_TIMEOUT_MS = 5_000;

/** `_rpcpulse.<host>` has a TXT record `rpcpulse-claim=<token>` (chunks of one record are joined). */
export async function checkDnsProof(resolveTxt: TxtResolver, url: string, token: string): Promise<ProofResult> {
  const host = dnsHostOf(url);
  if (!host) return { ok: false, reason: "The endpoint URL has no DNS name (an IP address); use the agent method." };
  const name = `${CLAIM_DNS_LABEL}.${host}`;
  let records: string[][];
  let timer: NodeJS.Timeout | undefined;
  try {
    records = await Promise.race([
      resolveTxt(name),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(Object.assign(new Error("timeout"), { code: "ETIMEOUT" })), DNS_TIMEOUT_MS);
      }),
    ]);
  } catch (error) {
    const code = (error as { code?: string }).code ?? "";
    if (code === "ENOTFOUND" || code === "ENODATA") return { ok: false, reason: `No TXT record found at ${name}.` };
    return { ok: false, reason: `DNS lookup of ${name} failed (${code || "error"}); try again later.` };
  } finally {
    clearTimeout(timer);
  }
  const expected = `${CLAIM_TXT_PREFIX}${token}`;
  const values = records.map((chunks) => chunks.join("").trim());
  if (values.includes(expected)) return { ok: true };
  const ours = values.filter((v) => v.startsWith(CLAIM_TXT_PREFIX));
  return {
    ok: false,
    reason: ours.length
      ? `The TXT record at ${name} carries another claim token.`
      : `${name} has TXT records, but none is ${CLAIM_TXT_PREFIX}….`,
  };
}

function hostPortOf(url: string): string | null {
  try {
    const u = new URL(url);
    const port = u.port || (u.protocol === "https:" || u.protocol === "wss:" ? "443" : "80");
    return `${u.hostname.toLowerCase().replace(/\.$/, "")}:${port}`;
  } catch {
    return null;
  }
}

/**
 * Agent proof: one of the organization's nodes has a public URL with the endpoint's host and port,
 * its agent pushed within `maxAgeMs`, and the endpoint's probed head agrees with the node's head
 * (after allowing for the time between the two readings). Pure.
 */
export function checkAgentProof(
  evidence: AgentClaimEvidence,
  input: { url: string; blockIntervalMs: number; now: Date; maxAgeMs: number },
): ProofResult {
  const target = hostPortOf(input.url);
  const matching = evidence.nodes.filter((n) => target !== null && hostPortOf(n.publicUrl) === target);
  if (matching.length === 0)
    return {
      ok: false,
      reason: `None of your nodes has a public URL on ${target ?? "this host"}; set it in the node's settings.`,
    };
  const live = matching.filter((n) => n.lastSeenAt && input.now.getTime() - n.lastSeenAt.getTime() <= input.maxAgeMs);
  if (live.length === 0) return { ok: false, reason: `The agent of ${matching[0]!.name} has not reported recently.` };
  const probe = evidence.endpointHead;
  if (!probe) return { ok: false, reason: "The endpoint has no recent successful probe with a head block yet." };
  for (const node of live) {
    if (node.headBlock === null || node.headAt === null) continue;
    const elapsedBlocks = (probe.at.getTime() - node.headAt.getTime()) / input.blockIntervalMs;
    const expected = node.headBlock + elapsedBlocks;
    const tolerance = 3 + Math.abs(elapsedBlocks) * 0.25;
    if (Math.abs(probe.block - expected) <= tolerance) return { ok: true, nodeId: node.id };
  }
  return {
    ok: false,
    reason: `The endpoint's head (block ${probe.block}) does not match the head your agent reports for ${live[0]!.name}.`,
  };
}

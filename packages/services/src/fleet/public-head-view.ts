import type { NodePublicHeadRow } from "@rpcpulse/db/fleet";
import { lagThresholdBlocks } from "./node-status.js";

/**
 * Public head vs node head, as the fleet and node pages show it. The worker checks the node's public
 * URL (what its users call, often a load balancer) and stores what it served next to the node's own
 * newest head at that moment. Verdicts:
 *  - failing: the last check failed (error, timeout, refused by the SSRF guard);
 *  - behind:  the URL served a head at least lagThresholdBlocks (max(3, 30 s of blocks)) below the
 *             node's own: a stale backend behind the balancer, a cache, or another node entirely;
 *  - ahead:   the URL is ahead of the node by that much beyond the blocks produced between the node's
 *             sample and the check: users are served by another backend while this node lags;
 *  - ok:      within that margin.
 * The node's sample is read before the check, so its head is never newer than what the URL could
 * serve at check time: a "behind" is never an artefact of timing.
 */
export type PublicHeadVerdict = "ok" | "behind" | "ahead" | "failing";

/** Plain JSON (ISO times): the node page's metrics route sends it to the browser as is. */
export interface PublicHeadView {
  url: string;
  checkedAt: string;
  verdict: PublicHeadVerdict;
  /** Newest head the URL served (kept across failures), and when it was served. */
  headBlock: number | null;
  okAt: string | null;
  latencyMs: number | null;
  /** The node's own head when the check ran. */
  nodeHeadBlock: number | null;
  /** Public head − node head in blocks (negative: the URL serves an older head); null if either is unknown. */
  diffBlocks: number | null;
  failingSince: string | null;
  error: string | null;
  /** One line for a banner or a tooltip. */
  message: string;
}

const blocks = (n: number) => `${Math.abs(n).toLocaleString("en-US")} block${Math.abs(n) === 1 ? "" : "s"}`;
const head = (n: number | null) => (n === null ? "no head" : `#${n.toLocaleString("en-US")}`);

export function describePublicHead(input: {
  publicHead: NodePublicHeadRow | null;
  blockIntervalMs: number;
}): PublicHeadView | null {
  const p = input.publicHead;
  if (!p) return null;
  const diff = p.headBlock !== null && p.nodeHeadBlock !== null ? p.headBlock - p.nodeHeadBlock : null;
  const margin = lagThresholdBlocks(input.blockIntervalMs);
  const gapBlocks =
    p.nodeSampleTime !== null
      ? Math.max(
          0,
          Math.floor((p.checkedAt.getTime() - p.nodeSampleTime.getTime()) / Math.max(1, input.blockIntervalMs)),
        )
      : 0;
  const error = p.ok ? null : [p.errorClass, p.errorMessage].filter(Boolean).join(": ") || "failed";
  let verdict: PublicHeadVerdict;
  let message: string;
  if (!p.ok) {
    verdict = "failing";
    message = `Public URL failing (${error})${p.headBlock !== null ? `; it last served ${head(p.headBlock)}` : ""}${diff !== null && diff < 0 ? `, ${blocks(diff)} behind the node's own head ${head(p.nodeHeadBlock)}` : ""}.`;
  } else if (diff !== null && -diff >= margin) {
    verdict = "behind";
    message = `Public URL serves ${head(p.headBlock)}, ${blocks(diff)} behind the node's own head ${head(p.nodeHeadBlock)}: a stale backend or cache answers its users.`;
  } else if (diff !== null && diff - gapBlocks >= margin) {
    verdict = "ahead";
    message = `Public URL serves ${head(p.headBlock)}, ${blocks(diff)} ahead of this node's head ${head(p.nodeHeadBlock)}: its users are served by another backend while this node lags.`;
  } else {
    verdict = "ok";
    message =
      diff === null
        ? `Public URL serves ${head(p.headBlock)} (no head of the node to compare).`
        : `Public URL serves ${head(p.headBlock)}, ${diff === 0 ? "the node's own head" : `${blocks(diff)} ${diff < 0 ? "behind" : "ahead of"} the node's ${head(p.nodeHeadBlock)}`}.`;
  }
  return {
    url: p.url,
    checkedAt: p.checkedAt.toISOString(),
    verdict,
    headBlock: p.headBlock,
    okAt: p.okAt?.toISOString() ?? null,
    latencyMs: p.latencyMs,
    nodeHeadBlock: p.nodeHeadBlock,
    diffBlocks: diff,
    failingSince: p.failingSince?.toISOString() ?? null,
    error,
    message,
  };
}

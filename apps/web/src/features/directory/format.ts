/** Display helpers of the directory pages (pure). */

export function formatScore(score: number | null | undefined): string {
  return score === null || score === undefined ? "—" : score.toFixed(1);
}

export function formatLatency(ms: number | null | undefined): string {
  if (ms === null || ms === undefined) return "—";
  if (ms === 0) return "0 ms";
  if (ms < 10) return `${ms.toFixed(1)} ms`;
  if (ms >= 10_000) return `${(ms / 1000).toFixed(1)} s`;
  return `${Math.round(ms)} ms`;
}

/** Share 0..1 as a percentage; more digits near 100 % where they matter. */
export function formatUptime(share: number | null | undefined): string {
  if (share === null || share === undefined) return "—";
  const p = share * 100;
  if (p >= 99.995) return "100 %";
  return `${p >= 99 ? p.toFixed(2) : p.toFixed(1)} %`;
}

export function formatBlocks(blocks: number | null | undefined): string {
  if (blocks === null || blocks === undefined) return "—";
  return blocks < 10 ? blocks.toFixed(1).replace(/\.0$/, "") : Math.round(blocks).toLocaleString("en-US");
}

export function formatUtc(at: Date | string | number | null | undefined): string {
  if (at === null || at === undefined) return "—";
  return `${new Date(at).toISOString().slice(0, 16).replace("T", " ")} UTC`;
}

export function formatAgo(at: Date | string | number | null | undefined, now: number): string {
  if (at === null || at === undefined) return "never";
  const s = Math.max(0, Math.round((now - new Date(at).getTime()) / 1000));
  if (s < 60) return `${s} s ago`;
  if (s < 3600) return `${Math.round(s / 60)} min ago`;
  if (s < 172_800) return `${Math.round(s / 3600)} h ago`;
  return `${Math.round(s / 86_400)} d ago`;
}

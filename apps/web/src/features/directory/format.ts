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

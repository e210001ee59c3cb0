"use client";
import type { ConsensusClientPage } from "@rpcpulse/services/fleet";
import { TimeSeriesChart } from "@/components/charts/time-series-chart.js";

const count = (v: number) => (Number.isInteger(v) ? String(v) : v.toFixed(1));

/** Slots the consensus client was behind the wall clock (max per bucket) and its peers (min), over the range. */
export function ConsensusClientChart({ page }: { page: ConsensusClientPage }) {
  const xRange: [number, number] = [Math.floor(Date.parse(page.from) / 1000), Math.floor(Date.parse(page.to) / 1000)];
  return (
    <TimeSeriesChart
      title="Consensus client: slots behind the wall clock and peers"
      time={page.series.time}
      xRange={xRange}
      unit="slots"
      format={count}
      rightUnit="peers"
      rightFormat={count}
      height={160}
      emptyText="No consensus-client readings in this range."
      series={[
        { label: "slots behind", color: "#dc2626", values: page.series.slotsBehind },
        { label: "peers", color: "#0e7c86", values: page.series.peers, right: true, dashed: true },
      ]}
    />
  );
}

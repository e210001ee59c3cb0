import { freshnessLimits, measureProbeLags, SCORING, type LagProbe } from "@rpcpulse/prober";
import { DataTable, labelColumns } from "@/components/data-table.js";

const LAG_NUMBERS = ["Answered at (s into the round)", "Reported head", "Consensus head then", "Lag (blocks)"];

/**
 * The methodology sections on the network head and lag, freshness (health) and the vantage rules.
 * Every figure is computed by the functions and settings the ranking job runs.
 */

const HIVE_MS = 3_000;
const pct = (v: number, digits = 0) => `${(v * 100).toFixed(digits)} %`;

/** One round of probes on a 3 s chain, with no stored decision: the round's own consensus, per probe. */
function lagExample() {
  const t0 = Date.UTC(2026, 0, 1, 12, 0, 0);
  const head = (t: number) => 90_000_000 + Math.floor((t - t0) / HIVE_MS);
  const blockTime = (h: number) => t0 + (h - 90_000_000) * HIVE_MS;
  // [endpoint, start offset in the round (ms), time to first byte (ms), blocks behind, bogus head]
  const rows: Array<[string, number, number, number, boolean]> = [
    ["A", 400, 20, 0, false],
    ["B", 7_900, 150, 0, false],
    ["C", 15_200, 40, 0, false],
    ["D", 21_700, 30, 12, false],
    ["E", 26_100, 25, 0, true],
  ];
  const probes: LagProbe[] = rows.map(([name, offset, ttfb, behind, bogus]) => {
    const h = bogus ? 99_999_999 : head(t0 + offset + ttfb) - behind;
    return {
      startedAt: t0 + offset,
      ttfbMs: ttfb,
      ok: true,
      headBlock: h,
      headTimeMs: bogus ? t0 + offset : blockTime(h),
      source: `endpoint:${name}`,
    };
  });
  const lags = measureProbeLags(probes, [], { blockIntervalMs: HIVE_MS, roundMs: 30_000 });
  return rows.map(([name, offset, ttfb, , bogus], i) => ({
    name,
    at: (offset + ttfb) / 1000,
    head: probes[i]?.headBlock ?? 0,
    reference: lags[i]?.referenceBlock ?? null,
    lag: lags[i]?.lagBlocks ?? null,
    bogus,
  }));
}

export function HeadSection() {
  const example = lagExample();
  return (
    <section id="head" className="card">
      <h2>Network head and lag: one consensus, projected to each probe</h2>
      <p>
        Every lag RPC Pulse publishes is measured against one consensus head per network, decided by the worker every
        few seconds from independent sources: the listed endpoints its own probes reached (an endpoint claimed by an
        organization votes as that organization). Each source&apos;s head is projected to a common instant with the
        chain&apos;s block interval; heads whose block time is in the future or too old, and heads no honest chain can
        have reached yet, do not vote. The head is the q-th highest projected head with q = max(2, ⌈n/3⌉) of the n
        sources: fewer than q sources cannot raise it, lagging ones do not pull it down. Endpoints whose head goes
        backwards between probes (load balancers mixing nodes) are counted.
      </p>
      <p>
        A probe&apos;s lag is the consensus head projected to the moment the endpoint answered (probe start + time to
        first byte: one block per block interval from the decision nearest that moment, within{" "}
        {SCORING.lag.decisionMaxDistanceMs / 60_000} minutes) minus the head it reported, never below 0. So an endpoint
        at the head reads 0 wherever it sits in the probe round, a fixed lag reads the same number on every probe, and
        the probe order (random in every round) cannot matter. Where no stored decision exists, the same consensus is
        computed from the server probes of the probe&apos;s round.
      </p>
      <p>
        A head may not run ahead of the previous decision by more than the elapsed time allows (one block per interval)
        plus a tolerance of max(2 blocks, 30 s of blocks); a source beyond that is set aside as runaway. With fewer than
        two endpoints counting, organizations vote with their nodes, each organization once, so a head always needs two
        independent parties. Agent vantage probes never vote.
      </p>
      <p>
        The same head measures operators&apos; nodes: a node&apos;s lag is the higher of the consensus head and its own
        organization&apos;s other nodes of that network, projected to the sample&apos;s time, minus the node&apos;s
        head. Another organization&apos;s node never changes it; a node alone on a network without a consensus shows lag
        unknown, never 0. Finality lag is head minus the finalized block (GRANDPA finalized head on Polkadot, the{" "}
        <span className="mono">finalized</span> block tag on Ethereum, the last irreversible block on Hive and Steem).
      </p>
      <p>Example: one round on a 3-second chain, computed by the function the ranking uses.</p>
      <DataTable
        className="compact"
        caption="Lag against the consensus head projected to each probe"
        columns={labelColumns(["Endpoint", ...LAG_NUMBERS], LAG_NUMBERS)}
      >
        {example.map((r) => (
          <tr key={r.name}>
            <td>{r.name}</td>
            <td className="num">{r.at.toFixed(2)}</td>
            <td className="num">{r.head.toLocaleString("en-US")}</td>
            <td className="num">{r.reference?.toLocaleString("en-US") ?? "—"}</td>
            <td className="num">{r.bogus ? "0 (ahead: does not vote up the head)" : (r.lag ?? "—")}</td>
          </tr>
        ))}
      </DataTable>
    </section>
  );
}

export function FreshnessSection() {
  const hive = freshnessLimits(3_000);
  const eth = freshnessLimits(12_000);
  return (
    <section id="freshness" className="card">
      <h2>Health follows freshness</h2>
      <p>
        An endpoint that answers with old data is not healthy, whatever its availability. A probe <strong>lags</strong>{" "}
        when it is at least max(3, 30 s of blocks) behind the consensus head, or its head block is older than max(60 s,
        10 block intervals): {hive.lagBlocks} blocks or {hive.headAgeMs / 1000} s on Hive, {eth.lagBlocks} blocks or{" "}
        {eth.headAgeMs / 1000} s on Ethereum. These are the limits nodes are held to on the fleet and status pages. A
        probe is <strong>stale</strong> when its head is that old and no higher than what a probe two block intervals
        earlier read: the node stopped.
      </p>
      <ul className="dir-list">
        <li>
          <span className="dir-status status-stale">stale</span> the newest successful probe in the window is stale.
        </li>
        <li>
          <span className="dir-status status-lagging">lagging</span> the newest successful probe lags, or more than{" "}
          {pct(SCORING.freshness.laggingShareAbove)} of the window&apos;s successful probes did.
        </li>
      </ul>
      <p>
        Both take precedence over <em>degraded</em> and <em>healthy</em> in the health column, the badges and the JSON
        API. Uptime counts only answers with a fresh head; answers that lagged are reported apart (
        <code>uptimeLagging</code>). On status pages a lagging endpoint is <em>degraded</em> (a partial outage at 10 ×
        the lag limit or 3 × the head-age limit), and its lagging minutes count as degraded minutes, exactly as for a
        node.
      </p>
    </section>
  );
}

export function VantageSection() {
  const v = SCORING.vantage;
  return (
    <section id="vantage" className="card">
      <h2>Vantage points: who may move the ranking</h2>
      <ul className="dir-list">
        <li>
          The overall ranking (region &ldquo;all&rdquo;), listing status (probation, active, dead) and lag history use
          RPC Pulse&apos;s own probe workers only. Agents of organizations that opted in to probing never move them,
          however many probes they send.
        </li>
        <li>
          Agents&apos; probes form per-region views, next to the server probes of that region. There, one
          organization&apos;s vantage points count as one source, holding at most {pct(v.maxAgentShare)} of an
          endpoint&apos;s samples (extra probes are thinned evenly over time); in a region without server probes each
          organization counts equally.
        </li>
        <li>
          An agent source with at least {v.minSamples} probes that disagrees with the median of at least {v.minOthers}{" "}
          other sources is discounted (left out) and flagged on the endpoint&apos;s page and in its JSON: availability
          more than {pct(v.outlier.availability)} apart, p50 latency {v.outlier.latencyRatio} × higher or lower (and at
          least {v.outlier.latencyMinMs} ms apart), or median lag more than max({v.outlier.lagBlocks}, 30 s of blocks)
          apart.
        </li>
        <li>
          An organization&apos;s vantage points never score an endpoint that organization claims: their probes of it are
          left out of every view.
        </li>
      </ul>
    </section>
  );
}

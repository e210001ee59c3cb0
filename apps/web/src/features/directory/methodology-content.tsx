import Link from "next/link";
import { SCORING, wilsonLowerBound } from "@rpcpulse/prober";
import { FreshnessSection, HeadSection, VantageSection } from "./methodology-rules.js";
import { DataTable, labelColumns } from "@/components/data-table.js";

const WILSON_NUMBERS = ["Raw rate", "Wilson lower bound"];

const pct = (v: number, digits = 1) => `${(v * 100).toFixed(digits)} %`;
const WEIGHT_KEYS = Object.keys(SCORING.weights) as Array<keyof typeof SCORING.weights>;

/** What each weighted component measures; typed by SCORING's keys so a new component needs a line here. */
const COMPONENT_TEXT: Record<keyof typeof SCORING.weights, string> = {
  availability: `Wilson lower bound (z = ${SCORING.availability.z}) of successful probes over all probes in the window.`,
  latency: `${SCORING.latency.p50Share} × ${SCORING.latency.p50RefMs}/(${SCORING.latency.p50RefMs} + p50) + ${(1 - SCORING.latency.p50Share).toFixed(1)} × ${SCORING.latency.p95RefMs}/(${SCORING.latency.p95RefMs} + p95), on time to first byte of a fresh connection (ms).`,
  lag: `${SCORING.lag.refSeconds}/(${SCORING.lag.refSeconds} + mean lag in seconds) behind the network head.`,
  errors: "1 − share of answered probes that were errors (HTTP ≥ 400 including 429, or a JSON-RPC error).",
  capabilities: "Weighted mean of the known capability checks (below); unknown or not applicable items are left out.",
};

const CAPABILITY_TEXT: Record<keyof typeof SCORING.capabilities, string> = {
  archive: "State at an old block is served (archive node).",
  coverage: "Share of the family's method set that answers (Hive API sets, Ethereum debug_/trace_, Sidecar routes).",
  websocket: "WebSocket connects and delivers new heads.",
  cors: "Browsers may call it (CORS preflight allowed).",
  batch: "JSON-RPC batch requests are accepted.",
};

export function MethodologyContent() {
  const few = wilsonLowerBound(3, 3, SCORING.availability.z);
  const many = wilsonLowerBound(9_990, 10_000, SCORING.availability.z);
  const s = SCORING.status;
  return (
    <article className="dir-prose">
      <p className="crumbs small">
        <Link href="/directory">Directory</Link> /
      </p>
      <h1>How endpoints are probed and ranked</h1>
      <p className="muted">
        Method version <code>{SCORING.version}</code>. Every number on this page is read from the code that ranks the
        directory, so it cannot drift from what we run.
      </p>

      <nav aria-label="On this page" className="card dir-toc">
        <ol>
          <li>
            <a href="#probing">Probing</a>
          </li>
          <li>
            <a href="#head">Network head and lag</a>
          </li>
          <li>
            <a href="#freshness">Health follows freshness</a>
          </li>
          <li>
            <a href="#vantage">Vantage points</a>
          </li>
          <li>
            <a href="#score">Score</a>
          </li>
          <li>
            <a href="#wilson">Availability with a confidence bound</a>
          </li>
          <li>
            <a href="#order">Order and hysteresis</a>
          </li>
          <li>
            <a href="#status">Probation and dead endpoints</a>
          </li>
        </ol>
      </nav>

      <section id="probing" className="card">
        <h2>Probing</h2>
        <p>
          Every listed endpoint is probed on a fixed cadence, in a new random order every round with random jitter, from
          each vantage point: RPC Pulse&apos;s own probe workers, and node agents whose operators opted in (each agent
          reports its region). Latency is therefore shown per region, never as one global number from one place;
          agents&apos; probes only ever feed the region views (see <a href="#vantage">Vantage points</a>).
        </p>
        <p>
          A probe sends the family&apos;s head call (e.g. <code>condenser_api.get_dynamic_global_properties</code>,{" "}
          <code>eth_getBlockByNumber</code>, <code>chain_getHeader</code>) on a fresh connection and records the phases
          separately: DNS, connect, TLS, time to first byte and total, with sub-millisecond precision. It also records
          the head block and its time, the irreversible or finalized block, HTTP status, JSON-RPC errors, 429 answers
          and response size.
        </p>
        <p>
          Capability checks run on a slower cadence: archive state at an old block, method coverage, WebSocket and
          new-head subscription, CORS, batch requests, and the client version. The prober never reaches private,
          loopback or metadata addresses, and every request is bounded in time and size.
        </p>
      </section>

      <HeadSection />

      <FreshnessSection />

      <VantageSection />

      <section id="score" className="card">
        <h2>Score</h2>
        <p>
          Each endpoint gets a score from 0 to 100 per chain, region and rolling window (
          {Object.keys(SCORING.windows).join(", ")}): a weighted mean of components that each lie between 0 and 1. A
          component that cannot be computed (no capability check yet, no answered probe) is left out and the other
          weights are renormalised. An endpoint without a single successful probe in the window scores its availability
          alone (0).
        </p>
        <p className="formula">
          score = 100 × Σ w<sub>i</sub> · c<sub>i</sub> / Σ w<sub>i</sub>
        </p>
        <DataTable
          className="compact"
          caption="Score components and weights"
          columns={labelColumns(["Component", "Weight", "How it is computed"], ["Weight"])}
        >
          {WEIGHT_KEYS.map((key) => (
            <tr key={key}>
              <th scope="row">{key}</th>
              <td className="num">{pct(SCORING.weights[key], 0)}</td>
              <td>{COMPONENT_TEXT[key]}</td>
            </tr>
          ))}
        </DataTable>
        <h3>Capability weights</h3>
        <ul className="dir-list">
          {(Object.keys(SCORING.capabilities) as Array<keyof typeof SCORING.capabilities>).map((key) => (
            <li key={key}>
              <strong>{key}</strong> ({pct(SCORING.capabilities[key], 0)}): {CAPABILITY_TEXT[key]}
            </li>
          ))}
        </ul>
      </section>

      <section id="wilson" className="card">
        <h2>Availability with a confidence bound</h2>
        <p>
          A new endpoint that answered 3 probes out of 3 has a perfect success rate, but we know very little about it.
          The score uses the lower bound of the Wilson score interval at z = {SCORING.availability.z} (95 %) instead of
          the raw rate: the availability we are confident of given the number of probes.
        </p>
        <DataTable
          className="compact"
          caption="Wilson lower bound examples"
          columns={labelColumns(["Successful / probes", ...WILSON_NUMBERS], WILSON_NUMBERS)}
        >
          <tr data-testid="wilson-few">
            <td>3 / 3</td>
            <td className="num">{pct(1)}</td>
            <td className="num">{pct(few, 2)}</td>
          </tr>
          <tr data-testid="wilson-many">
            <td>9,990 / 10,000</td>
            <td className="num">{pct(0.999)}</td>
            <td className="num">{pct(many, 2)}</td>
          </tr>
        </DataTable>
        <p>
          So 3 of 3 counts as {pct(few, 1)} available and 9,990 of 10,000 as {pct(many, 1)}: a handful of lucky probes
          never outranks a long clean record.
        </p>
      </section>

      <section id="order" className="card">
        <h2>Order and hysteresis</h2>
        <p>
          The order starts from the previous one. An endpoint passes the one ranked above it only when its score is
          higher by more than <strong>{SCORING.ranking.hysteresis} points</strong>, so near-equal endpoints do not swap
          places every cycle, and apps that pick &ldquo;the first one&rdquo; do not flap between nodes. New endpoints
          enter below the known ones, best score first.
        </p>
      </section>

      <section id="status" className="card">
        <h2>Probation and dead endpoints</h2>
        <ul className="dir-list">
          <li>
            <span className="dir-status status-probation">probation</span> fewer than {s.minSamples} probes in the
            window, or recovering after being dead until {s.recoveryStreak} consecutive successful probes. Listed after
            established endpoints.
          </li>
          <li>
            <span className="dir-status status-degraded">degraded</span> availability below {pct(s.degradedBelow, 0)} in
            the window, or the last probe failed. Ranked by score with the healthy ones.
          </li>
          <li>
            <span className="dir-status status-lagging">lagging</span> and{" "}
            <span className="dir-status status-stale">stale</span>: answering with old data (see{" "}
            <a href="#freshness">Health follows freshness</a>). Ranked by score, where lag weighs{" "}
            {pct(SCORING.weights.lag, 0)}.
          </li>
          <li>
            <span className="dir-status status-dead">dead</span> {s.deadAfterFailures} consecutive failed probes. Dead
            endpoints are moved to the bottom and marked, never hidden: you can see that a once-listed URL stopped
            answering.
          </li>
        </ul>
        <p>
          An endpoint is marked <span className="dir-verified">operator verified</span>, with the organization named,
          when that organization proved control of it: a DNS TXT record{" "}
          <span className="mono">_rpcpulse.&lt;host&gt;</span> or a token served by the endpoint itself at{" "}
          <span className="mono">https://&lt;host&gt;/.well-known/rpcpulse-claim</span>, checked when it asks. A node
          naming the endpoint as its public URL, or an agent&apos;s report, proves nothing on its own and never takes an
          endpoint from the organization holding it; a later proof by another organization does.
        </p>
      </section>
    </article>
  );
}

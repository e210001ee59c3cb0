import type { SuggestionView } from "@rpcpulse/services/advisor";
import Link from "next/link";
import { BeforeAfterChart, EvidenceChart } from "./advisor-charts.js";
import { CopyButton } from "./copy-button.js";
import { formatMetric, KIND_LABEL, metricInfo, STATE_LABEL } from "./format.js";
import { SuggestionActions } from "./suggestion-actions.js";
import { Time } from "@/components/time.js";
import { formatClock } from "@/lib/format.js";
import { getDisplayZone } from "@/server/display-prefs.js";

type Action = "acknowledge" | "apply" | "dismiss" | "close" | "reopen";

/** Which lifecycle actions make sense from a state (the service enforces the same table). */
function actionsFor(s: SuggestionView): Action[] {
  switch (s.state) {
    case "open":
      return s.kind === "change" ? ["acknowledge", "apply", "dismiss"] : ["acknowledge", "close", "dismiss"];
    case "acknowledged":
      return s.kind === "change" ? ["apply", "dismiss"] : ["close", "dismiss"];
    case "applied":
      return ["close", "dismiss"];
    case "verified":
      return ["close"];
    case "not_effective":
      return ["close", "dismiss"];
    default:
      return ["reopen"];
  }
}

/** The verdict of a verification in words, with its uncertainty. */
export function VerdictLine({ s }: { s: SuggestionView }) {
  const v = s.verification;
  if (!v) {
    return s.state === "applied" ? (
      <p className="muted small">
        Waiting for {s.draft.verification.minimumWindowMinutes} min of data after the change (applied{" "}
        {s.appliedAt ? <Time at={s.appliedAt} now={Date.now()} /> : ""}
        {s.appliedBy === "agent" ? ", detected by the agent" : ""}).
      </p>
    ) : null;
  }
  const r = v.result;
  const m = v.metric;
  const pct =
    r.beforeMedian && r.change !== null
      ? ` (${r.change > 0 ? "+" : ""}${Math.round((r.change / Math.abs(r.beforeMedian)) * 100)} %)`
      : "";
  const words: Record<string, string> = {
    helped: "Helped",
    "no-effect": "No measurable effect",
    hurt: "Made it worse",
    "insufficient-data": "Not enough data yet",
  };
  return (
    <p className={`verdict verdict-${r.verdict}`} data-testid="verdict">
      <strong>{words[r.verdict] ?? r.verdict}</strong>: median {formatMetric(m, r.beforeMedian)} →{" "}
      {formatMetric(m, r.afterMedian)}
      {pct}
      {r.ciLow !== null && r.ciHigh !== null ? (
        <>
          ; 95 % interval of the shift [{formatMetric(m, r.ciLow)}, {formatMetric(m, r.ciHigh)}], confidence{" "}
          {Math.round(r.confidence * 100)} %
        </>
      ) : null}
      . {r.n.before} samples before, {r.n.after} after, {v.windowMinutes} min each side.
    </p>
  );
}

export async function BeforeAfter({ s }: { s: SuggestionView }) {
  const v = s.verification;
  if (!v) return null;
  const info = metricInfo(v.metric);
  const zone = await getDisplayZone();
  return (
    <div className="before-after">
      <BeforeAfterChart
        title={`${info.label}: before and after the change at ${formatClock(v.appliedAt, zone, { zoneName: true })}`}
        unit={info.ratio ? "%" : info.unit}
        ratio={info.ratio}
        before={v.before.points}
        after={v.after.points}
        beforeMedian={v.result.beforeMedian}
        afterMedian={v.result.afterMedian}
        appliedAt={v.appliedAt}
      />
      <VerdictLine s={s} />
    </div>
  );
}

/** One suggestion, expandable: evidence with charts, arithmetic, snippets, caveats, effect, sources. */
export function SuggestionCard(props: {
  s: SuggestionView;
  slug: string;
  canManage: boolean;
  showNode: boolean;
  open?: boolean;
}) {
  const { s, slug } = props;
  const d = s.draft;
  return (
    <details className={`advice sev-${s.severity}`} open={props.open} data-testid="suggestion" data-rule={s.ruleId}>
      <summary>
        <span className={`sev sev-${s.severity}`}>{s.severity}</span>
        <span className="advice-title">{s.title}</span>
        {props.showNode ? <span className="advice-node">{s.nodeName}</span> : null}
        <span className={`state state-${s.state}`} data-testid="suggestion-state">
          {STATE_LABEL[s.state] ?? s.state}
        </span>
      </summary>
      <div className="advice-body">
        <p className="muted small">
          {/* The node link lives here, not in <summary>: a link inside the toggle is a nested control. */}
          {props.showNode ? (
            <>
              <Link href={`/app/o/${slug}/nodes/${s.nodeId}`}>{s.nodeName}</Link> ·{" "}
            </>
          ) : null}
          {KIND_LABEL[s.kind]} · rule <code>{s.ruleId}</code> · opened <Time at={s.openedAt} now={Date.now()} /> · last
          seen <Time at={s.lastSeenAt} now={Date.now()} />
          {s.reopenCount > 0 ? ` · re-opened ${s.reopenCount}×` : ""}
          {s.dismissReason ? ` · dismissed: “${s.dismissReason}”` : ""}
        </p>
        <p>{d.summary}</p>
        {props.canManage ? (
          <SuggestionActions slug={slug} suggestionId={s.id} title={s.title} actions={actionsFor(s)} />
        ) : null}
        <BeforeAfter s={s} />
        {d.evidence.length > 0 ? (
          <section>
            <h3>Evidence</h3>
            <ul className="evidence">
              {d.evidence.map((e, i) => (
                <li key={i}>
                  <span>
                    {e.label}: <strong>{e.observed.toLocaleString("en")}</strong> {e.unit} (threshold {e.comparison}{" "}
                    {e.threshold.toLocaleString("en")} {e.unit})
                  </span>
                  {e.series && e.series.length > 1 ? (
                    <EvidenceChart title={e.label} unit={e.unit} threshold={e.threshold} points={e.series} />
                  ) : null}
                </li>
              ))}
            </ul>
            <p className="muted small">
              <Link href={`/app/o/${slug}/nodes/${s.nodeId}`}>Open the node&apos;s charts</Link>
            </p>
          </section>
        ) : null}
        {d.arithmetic.length > 0 ? (
          <section>
            <h3>Arithmetic</h3>
            <ol className="arithmetic">
              {d.arithmetic.map((a, i) => (
                <li key={i}>{a}</li>
              ))}
            </ol>
          </section>
        ) : null}
        {d.snippets.length > 0 ? (
          <section>
            <h3>Snippets</h3>
            {d.snippets.map((sn, i) => (
              <div key={i} className="snippet">
                <div className="snippet-head">
                  <span>
                    <strong>{sn.title}</strong> <span className="badge">{sn.kind}</span>
                    {sn.dryRunFirst ? <span className="badge dry">dry-run first</span> : null}
                    {sn.filename ? <code className="small"> {sn.filename}</code> : null}
                  </span>
                  <CopyButton value={sn.content} label={`Copy snippet: ${sn.title}`} />
                </div>
                <pre>{sn.content}</pre>
                {sn.applyCommand ? (
                  <p className="small">
                    Apply: <code>{sn.applyCommand}</code>
                  </p>
                ) : null}
              </div>
            ))}
          </section>
        ) : null}
        {d.caveats.length > 0 ? (
          <section>
            <h3>Caveats</h3>
            <ul>
              {d.caveats.map((c, i) => (
                <li key={i}>{c}</li>
              ))}
            </ul>
          </section>
        ) : null}
        <section className="two-col">
          {d.expectedEffect ? (
            <div>
              <h3>Expected effect</h3>
              <p>{d.expectedEffect}</p>
            </div>
          ) : null}
          <div>
            <h3>How to verify</h3>
            <p>
              {d.verification.how} RPC Pulse compares <em>{metricInfo(d.verification.metric).label.toLowerCase()}</em>{" "}
              over {d.verification.minimumWindowMinutes} min before and after the change.
            </p>
          </div>
        </section>
        {d.sources.length > 0 ? (
          <section>
            <h3>Sources</h3>
            <ul className="sources">
              {d.sources.map((src, i) => (
                <li key={i}>
                  <a href={src.url} rel="noreferrer noopener" target="_blank">
                    {src.title}
                  </a>
                </li>
              ))}
            </ul>
          </section>
        ) : null}
        {s.events.length > 0 ? (
          <section>
            <h3>History</h3>
            <ul className="history small">
              {s.events.map((e) => (
                <li key={e.id}>
                  <Time at={e.at} /> · {e.fromState ? `${STATE_LABEL[e.fromState]} → ` : ""}
                  {STATE_LABEL[e.toState]} · {e.actor === "system" || e.actor === "agent" ? e.actor : "operator"}
                  {e.reason ? ` · ${e.reason}` : ""}
                </li>
              ))}
            </ul>
          </section>
        ) : null}
      </div>
    </details>
  );
}

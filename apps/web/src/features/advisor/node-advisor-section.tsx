import { hasRole, type ServiceContext } from "@rpcpulse/services/context";
import { listSuggestions } from "@rpcpulse/services/advisor";
import Link from "next/link";
import { getRuntime } from "@/server/runtime.js";
import { SuggestionCard } from "./suggestion-card.js";
import "./advisor.css";

/**
 * The node page's advisor section: this node's suggestions (open ones and results), applied and
 * verified ones with their before/after chart and verdict.
 */
export async function NodeAdvisorSection(props: { ctx: ServiceContext; nodeId: string }) {
  const { ctx, nodeId } = props;
  const suggestions = await listSuggestions({ prisma: getRuntime().prisma }, ctx, { nodeId });
  const slug = ctx.organizationSlug;
  const canManage = hasRole(ctx, "admin");
  return (
    <section className="card" aria-labelledby="advisor-title" data-testid="node-advisor">
      <div className="section-head">
        <h2 id="advisor-title">Tuning advisor</h2>
        <span className="small">
          <Link href={`/app/o/${slug}/advisor?node=${nodeId}`}>All suggestions</Link> ·{" "}
          <a href={`/app/o/${slug}/advisor/export?node=${nodeId}`} download>
            Export as shell script
          </a>
        </span>
      </div>
      {suggestions.length === 0 ? (
        <p className="muted">Nothing to suggest from this node&apos;s recent telemetry.</p>
      ) : (
        suggestions.map((s) => (
          <SuggestionCard
            key={s.id}
            s={s}
            slug={slug}
            canManage={canManage}
            showNode={false}
            open={s.verification !== null}
          />
        ))
      )}
    </section>
  );
}

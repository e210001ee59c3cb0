import { findOrgIncident, listConfirmedSubscribers, listPublicStatusPagesByIds } from "@rpcpulse/db/status";
import { type PrismaClient } from "@rpcpulse/db/sql";
import type { QueueTarget } from "@rpcpulse/queue";
import { decryptSecret, type SecretsKey } from "../alerting/channel-secrets.js";
import { enqueueEmail, enqueueWebhookPost } from "../alerting/enqueue-delivery.js";
import { markdownToText } from "./render-markdown.js";
import { unsubscribeTokenFor } from "./subscriptions.js";

export interface StatusNotifyDeps {
  prisma: PrismaClient;
  queue: QueueTarget;
  secretsKey: SecretsKey;
  appBaseUrl: string;
}

export type IncidentEvent = "incident.created" | "incident.updated" | "incident.resolved";

/**
 * Queue one email or signed webhook per confirmed subscriber of every public page the incident
 * shows on (its own page, and pages listing one of its components). Each message carries the
 * subscriber's own one-click unsubscribe link. Returns how many deliveries were queued.
 */
export async function notifyStatusSubscribers(
  deps: StatusNotifyDeps,
  input: { organizationId: string; incidentId: string; event: IncidentEvent },
): Promise<{ queued: number }> {
  const incident = await findOrgIncident(deps.prisma, input);
  if (!incident) return { queued: 0 };
  const pageIds = new Set<string>(incident.pageId ? [incident.pageId] : []);
  for (const link of incident.components) pageIds.add(link.component.pageId);
  const pages = await listPublicStatusPagesByIds(deps.prisma, [...pageIds]);
  const subscribers = await listConfirmedSubscribers(
    deps.prisma,
    pages.map((p) => p.id),
  );
  const latest = incident.updates[0];
  const base = deps.appBaseUrl.replace(/\/$/, "");
  let queued = 0;
  for (const sub of subscribers) {
    const page = pages.find((p) => p.id === sub.pageId);
    if (!page) continue;
    const pageUrl = `${base}/status/${page.slug}`;
    const unsubscribeUrl = `${pageUrl}/subscription/unsubscribe?token=${unsubscribeTokenFor(deps.secretsKey, sub.id)}`;
    const text = latest ? markdownToText(latest.body) : "";
    if (sub.kind === "email") {
      await enqueueEmail(deps, {
        organizationId: input.organizationId,
        purpose: "status-subscriber-update",
        to: sub.target,
        subject: `[${page.title}] ${incident.status === "resolved" ? "Resolved" : incident.status}: ${incident.title}`,
        text: `${incident.title}\nStatus: ${incident.status}\n\n${text}\n\n${pageUrl}\n\nUnsubscribe: ${unsubscribeUrl}\n`,
        headers: { "List-Unsubscribe": `<${unsubscribeUrl}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" },
      });
    } else {
      await enqueueWebhookPost(deps, {
        organizationId: input.organizationId,
        purpose: "status-subscriber-update",
        url: sub.target,
        body: {
          type: input.event,
          page: { title: page.title, url: pageUrl },
          incident: {
            id: incident.id,
            title: incident.title,
            status: incident.status,
            impact: incident.impact,
            startedAt: incident.startedAt.toISOString(),
            resolvedAt: incident.resolvedAt?.toISOString() ?? null,
            latestUpdate: latest
              ? { status: latest.status, body: latest.body, at: latest.createdAt.toISOString() }
              : null,
          },
          unsubscribeUrl,
        },
        signingSecret: sub.webhookSecret ? decryptSecret(deps.secretsKey, sub.webhookSecret) : null,
      });
    }
    queued++;
  }
  return { queued };
}

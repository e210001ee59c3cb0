import type { PublicIncident, PublicStatusPage } from "@rpcpulse/services/status";
import { escapeXml } from "@/features/directory/badge-svg.js";
import { titleCase } from "./format.js";

/**
 * RSS 2.0, Atom 1.0 and JSON Feed 1.1 of a page's incidents and maintenance windows. Built only
 * from the public snapshot (which holds only what the page lists). Pure: tests validate them.
 */

export interface FeedItem {
  id: string;
  title: string;
  url: string;
  html: string;
  text: string;
  published: Date;
  updated: Date;
}

function incidentHtml(i: PublicIncident): string {
  return i.updates
    .map((u) => `<p><strong>${escapeXml(titleCase(u.status))}</strong> · ${u.createdAt.toISOString()}</p>${u.html}`)
    .join("\n");
}

/** Newest first: incidents by last update, maintenance by start. At most 50 items. */
export function feedItems(snapshot: PublicStatusPage, pageUrl: string): FeedItem[] {
  const incidents = [...snapshot.activeIncidents, ...snapshot.pastIncidents].map((i) => ({
    id: `${pageUrl}#incident-${i.id}`,
    title: `${i.resolvedAt ? "[Resolved] " : `[${titleCase(i.status)}] `}${i.title}`,
    url: `${pageUrl}#incident-${i.id}`,
    html: incidentHtml(i),
    text: i.updates.map((u) => `${titleCase(u.status)}: ${u.text}`).join("\n\n"),
    published: i.startedAt,
    updated: i.updatedAt,
  }));
  const maintenance = snapshot.maintenance.map((m) => ({
    id: `${pageUrl}#maintenance-${m.id}`,
    title: `[Maintenance] ${m.title}`,
    url: `${pageUrl}#maintenance-${m.id}`,
    html: `<p>Scheduled ${m.startsAt.toISOString()} to ${m.endsAt.toISOString()}</p>${m.html}`,
    text: `Scheduled ${m.startsAt.toISOString()} to ${m.endsAt.toISOString()}. ${m.text}`,
    published: m.startsAt,
    updated: m.startsAt,
  }));
  return [...incidents, ...maintenance].sort((a, b) => b.updated.getTime() - a.updated.getTime()).slice(0, 50);
}

export function renderRss(snapshot: PublicStatusPage, pageUrl: string): string {
  const items = feedItems(snapshot, pageUrl);
  const body = items
    .map(
      (it) => `    <item>
      <title>${escapeXml(it.title)}</title>
      <link>${escapeXml(it.url)}</link>
      <guid isPermaLink="false">${escapeXml(it.id)}</guid>
      <pubDate>${it.updated.toUTCString()}</pubDate>
      <description>${escapeXml(it.html)}</description>
    </item>`,
    )
    .join("\n");
  return `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom">
  <channel>
    <title>${escapeXml(snapshot.page.title)}</title>
    <link>${escapeXml(pageUrl)}</link>
    <description>${escapeXml(snapshot.page.description || `Incidents and maintenance of ${snapshot.page.title}`)}</description>
    <atom:link href="${escapeXml(`${pageUrl}/rss`)}" rel="self" type="application/rss+xml"/>
    <lastBuildDate>${snapshot.generatedAt.toUTCString()}</lastBuildDate>
${body}
  </channel>
</rss>
`;
}

export function renderAtom(snapshot: PublicStatusPage, pageUrl: string): string {
  const items = feedItems(snapshot, pageUrl);
  const updated = items[0]?.updated ?? snapshot.generatedAt;
  const body = items
    .map(
      (it) => `  <entry>
    <id>${escapeXml(it.id)}</id>
    <title>${escapeXml(it.title)}</title>
    <link href="${escapeXml(it.url)}"/>
    <published>${it.published.toISOString()}</published>
    <updated>${it.updated.toISOString()}</updated>
    <content type="html">${escapeXml(it.html)}</content>
  </entry>`,
    )
    .join("\n");
  return `<?xml version="1.0" encoding="UTF-8"?>
<feed xmlns="http://www.w3.org/2005/Atom">
  <id>${escapeXml(pageUrl)}</id>
  <title>${escapeXml(snapshot.page.title)}</title>
  <link href="${escapeXml(pageUrl)}"/>
  <link rel="self" href="${escapeXml(`${pageUrl}/atom`)}"/>
  <updated>${updated.toISOString()}</updated>
  <author><name>${escapeXml(snapshot.page.title)}</name></author>
${body}
</feed>
`;
}

/** JSON Feed 1.1 (https://jsonfeed.org/version/1.1). */
export function renderJsonFeed(snapshot: PublicStatusPage, pageUrl: string): Record<string, unknown> {
  return {
    version: "https://jsonfeed.org/version/1.1",
    title: snapshot.page.title,
    home_page_url: pageUrl,
    feed_url: `${pageUrl}/feed.json`,
    description: snapshot.page.description || `Incidents and maintenance of ${snapshot.page.title}`,
    language: "en",
    items: feedItems(snapshot, pageUrl).map((it) => ({
      id: it.id,
      url: it.url,
      title: it.title,
      content_html: it.html,
      content_text: it.text,
      date_published: it.published.toISOString(),
      date_modified: it.updated.toISOString(),
    })),
  };
}

/** Current state of every listed component (for scripts and widgets). */
export function renderSummary(snapshot: PublicStatusPage, pageUrl: string): Record<string, unknown> {
  return {
    page: { title: snapshot.page.title, url: pageUrl },
    generatedAt: snapshot.generatedAt.toISOString(),
    status: snapshot.overall,
    components: snapshot.components.map((c) => ({
      id: c.id,
      name: c.name,
      group: snapshot.groups.find((g) => g.components.some((x) => x.id === c.id))?.name || null,
      network: c.network,
      status: c.state,
      uptime90d: c.uptime90,
      ...(c.kind === "node" ? { finalityLagBlocks: c.finalityLagBlocks } : {}),
      ...(c.kind === "consensus_client"
        ? {
            consensusClient: c.consensus
              ? {
                  client: c.consensus.client,
                  version: c.consensus.version,
                  apiOk: c.consensus.apiOk,
                  headSlot: c.consensus.headSlot,
                  wallSlot: c.consensus.wallSlot,
                  slotsBehind: c.consensus.slotsBehind,
                  syncing: c.consensus.syncing,
                  optimistic: c.consensus.optimistic,
                  elOffline: c.consensus.elOffline,
                  readAt: c.consensus.readAt.toISOString(),
                }
              : null,
          }
        : {}),
      ...(c.producer
        ? {
            producer: {
              account: c.producer.account,
              producing: c.producer.producing,
              disabled: c.producer.disabled,
              feedStale: c.producer.feedStale,
              recentMisses: c.producer.recentMisses.map((m) => ({
                detectedAt: m.detectedAt.toISOString(),
                blocks: m.blocks,
                fromBlock: m.fromBlock,
                toBlock: m.toBlock,
              })),
              ...(c.producer.validator
                ? {
                    validator: {
                      status: c.producer.validator.status,
                      eraPoints: c.producer.validator.eraPoints,
                      medianPoints: c.producer.validator.medianPoints,
                      lowPoints: c.producer.validator.lowPoints,
                      keysOnNode: c.producer.validator.keysOnNode,
                      offlineReports: c.producer.validator.offlineReports.map((r) => ({
                        block: r.block,
                        era: r.era,
                        detectedAt: r.detectedAt.toISOString(),
                      })),
                    },
                  }
                : {}),
            },
          }
        : {}),
    })),
    activeIncidents: snapshot.activeIncidents.map((i) => ({
      id: i.id,
      title: i.title,
      status: i.status,
      impact: i.impact,
      startedAt: i.startedAt.toISOString(),
      componentIds: i.componentIds,
    })),
    maintenance: snapshot.maintenance.map((m) => ({
      id: m.id,
      title: m.title,
      startsAt: m.startsAt.toISOString(),
      endsAt: m.endsAt.toISOString(),
      active: m.active,
      componentIds: m.componentIds,
    })),
  };
}

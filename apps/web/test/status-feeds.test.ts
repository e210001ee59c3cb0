import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { PublicStatusPage } from "@rpcpulse/services/status";
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { renderAtom, renderJsonFeed, renderRss, renderSummary } from "../src/features/status/feeds.js";
import { basePathFor, lookupFromParam, rewriteForHost } from "../src/features/status/page-lookup.js";
import { statusBadgeFor } from "../src/features/status/status-badge.js";

const NASTY = `Lag & "quotes" <b>tags</b> ]]> \u00e9\u4e2d`;

function snapshot(): PublicStatusPage {
  const at = new Date("2026-03-01T10:00:00Z");
  const component = {
    id: "11111111-1111-4111-8111-111111111111",
    name: `Node ${NASTY}`,
    description: "",
    kind: "node" as const,
    network: "Hive",
    state: "degraded" as const,
    uptime90: 0.9991,
    days: [],
    responseMs: [],
    lagBlocks: [],
    finalityLagBlocks: 45,
    finalityLag: [],
    producer: null,
  };
  return {
    page: {
      id: "p",
      slug: "acme",
      title: `Acme ${NASTY}`,
      description: "",
      accentColor: "#2563eb",
      theme: "auto",
      customDomain: null,
    },
    generatedAt: at,
    overall: "degraded",
    groups: [{ id: null, name: "", components: [component] }],
    components: [component],
    activeIncidents: [
      {
        id: "i1",
        title: `Incident ${NASTY}`,
        status: "investigating",
        impact: "major",
        auto: true,
        startedAt: at,
        resolvedAt: null,
        updatedAt: at,
        componentIds: [component.id],
        updates: [
          {
            id: "u1",
            status: "investigating",
            html: "<p>14 blocks &amp; <strong>more</strong></p>",
            text: "14 blocks & more",
            createdAt: at,
          },
        ],
      },
    ],
    pastIncidents: [],
    maintenance: [
      {
        id: "m1",
        title: "Upgrade",
        html: "",
        text: "",
        startsAt: at,
        endsAt: new Date(at.getTime() + 3_600_000),
        componentIds: [],
        active: false,
      },
    ],
    hours: [],
  };
}

const URL_ = "https://pulse.example/status/acme";

describe("status feeds", () => {
  test("RSS 2.0 is well-formed and escapes titles and HTML content", () => {
    const xml = renderRss(snapshot(), URL_);
    assert.equal(XMLValidator.validate(xml), true);
    const doc = new XMLParser({ ignoreAttributes: false }).parse(xml) as {
      rss: {
        "@_version": string;
        channel: { title: string; item: { title: string; description: string; link: string }[] };
      };
    };
    assert.equal(doc.rss["@_version"], "2.0");
    assert.equal(doc.rss.channel.item.length, 2);
    assert.match(doc.rss.channel.item[0]!.title, /Incident|Maintenance/);
    assert.ok(doc.rss.channel.item.some((i) => i.link === `${URL_}#incident-i1`));
    assert.ok(xml.includes("&lt;strong&gt;more"), "HTML content is escaped text");
  });

  test("Atom 1.0 is well-formed with id, updated and entries", () => {
    const xml = renderAtom(snapshot(), URL_);
    assert.equal(XMLValidator.validate(xml), true);
    const doc = new XMLParser({ ignoreAttributes: false }).parse(xml) as {
      feed: {
        "@_xmlns": string;
        id: string;
        updated: string;
        entry: { id: string; updated: string; content: { "@_type": string } }[];
      };
    };
    assert.equal(doc.feed["@_xmlns"], "http://www.w3.org/2005/Atom");
    assert.equal(doc.feed.id, URL_);
    assert.ok(!Number.isNaN(Date.parse(doc.feed.updated)));
    assert.equal(doc.feed.entry.length, 2);
    assert.equal(doc.feed.entry[0]!.content["@_type"], "html");
  });

  test("JSON Feed 1.1 shape", () => {
    const feed = renderJsonFeed(snapshot(), URL_) as {
      version: string;
      title: string;
      home_page_url: string;
      feed_url: string;
      items: Record<string, unknown>[];
    };
    assert.equal(feed.version, "https://jsonfeed.org/version/1.1");
    assert.equal(typeof feed.title, "string");
    assert.equal(feed.feed_url, `${URL_}/feed.json`);
    assert.equal(feed.items.length, 2);
    for (const item of feed.items) {
      assert.equal(typeof item.id, "string");
      assert.ok(typeof item.content_html === "string" || typeof item.content_text === "string");
      assert.ok(!Number.isNaN(Date.parse(String(item.date_published))));
    }
    assert.doesNotThrow(() => JSON.parse(JSON.stringify(feed)));
  });

  test("summary lists only the snapshot's components", () => {
    const s = renderSummary(snapshot(), URL_) as { status: string; components: { id: string }[] };
    assert.equal(s.status, "degraded");
    assert.deepEqual(
      s.components.map((c) => c.id),
      ["11111111-1111-4111-8111-111111111111"],
    );
  });
});

describe("status badges", () => {
  test("page and listed components only", () => {
    const snap = snapshot();
    assert.equal(statusBadgeFor(snap, "page.svg", "status")?.message, "degraded performance");
    assert.equal(statusBadgeFor(snap, "page.svg", "uptime")?.message, "99.91%");
    assert.ok(statusBadgeFor(snap, "11111111-1111-4111-8111-111111111111.svg", "uptime"));
    assert.equal(statusBadgeFor(snap, "22222222-2222-4222-8222-222222222222.svg", "status"), null);
    assert.equal(statusBadgeFor(snap, "page.png", "status"), null);
  });
});

describe("Host-header mapping", () => {
  const app = "pulse.example";
  test("the app's own host and loopback names are not rewritten", () => {
    for (const host of ["pulse.example", "PULSE.example:443", "localhost:3000", "127.0.0.1:3100", null]) {
      assert.equal(rewriteForHost({ host, appHost: app, pathname: "/" }), null, String(host));
    }
  });
  test("another host maps to /status/~<host>, keeping the path", () => {
    assert.equal(rewriteForHost({ host: "Status.Acme.org", appHost: app, pathname: "/" }), "/status/~status.acme.org");
    assert.equal(
      rewriteForHost({ host: "status.acme.org:8443", appHost: app, pathname: "/rss" }),
      "/status/~status.acme.org/rss",
    );
    assert.equal(rewriteForHost({ host: "status.acme.org", appHost: app, pathname: "/_next/static/x.js" }), null);
    // A Host that is no name serves nothing (the 404 of a domain no page has), never the app.
    assert.equal(rewriteForHost({ host: "evil host/../x", appHost: app, pathname: "/" }), "/status/~invalid");
  });
  test("the [slug] param: slug or ~domain, and the links' base path", () => {
    assert.deepEqual(lookupFromParam("acme"), { slug: "acme" });
    assert.deepEqual(lookupFromParam("~status.acme.org"), { domain: "status.acme.org" });
    assert.deepEqual(lookupFromParam("%7Estatus.acme.org"), { domain: "status.acme.org" });
    assert.equal(basePathFor("acme", "acme"), "/status/acme");
    assert.equal(basePathFor("~status.acme.org", "acme"), "");
  });
});

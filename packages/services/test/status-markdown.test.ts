import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { isSafeLinkTarget, markdownToText, renderMarkdown } from "../src/status/render-markdown.js";
import {
  dayLevel,
  deriveEndpointState,
  deriveNodeState,
  incidentImpactState,
  worstState,
} from "../src/status/component-state.js";

/** Every tag the renderer may emit; anything else in the output is a sanitizer failure. */
const ALLOWED_TAGS = new Set(["p", "br", "strong", "em", "code", "pre", "ul", "ol", "li", "h3", "h4", "a"]);

function tagsOf(html: string): string[] {
  return [...html.matchAll(/<\/?([a-zA-Z0-9]+)/g)].map((m) => (m[1] ?? "").toLowerCase());
}

function assertSafe(html: string): void {
  for (const tag of tagsOf(html)) assert.ok(ALLOWED_TAGS.has(tag), `unexpected tag <${tag}> in ${html}`);
  assert.doesNotMatch(html, /<[^>]*\son[a-z]+\s*=/i, "no event-handler attribute");
  assert.doesNotMatch(html, /href="(?!https?:|mailto:)/i, "only http(s)/mailto links");
  assert.doesNotMatch(html, /<[^>]*\s(style|src|srcset|formaction)\s*=/i);
}

describe("incident markdown renderer (sanitized by construction)", () => {
  test("renders the supported subset", () => {
    const html = renderMarkdown(
      "## Lag\nNode **hive-1** is _14 blocks_ behind, see `condenser_api`.\n\n- first\n- second\n\n1. one\n2. two\n\n```\nraw <b>\n```\n[docs](https://example.org/a?b=1&c=2)",
    );
    assert.match(html, /<h3>Lag<\/h3>/);
    assert.match(html, /<strong>hive-1<\/strong>/);
    assert.match(html, /<em>14 blocks<\/em>/);
    assert.match(html, /<code>condenser_api<\/code>/);
    assert.match(html, /<ul><li>first<\/li><li>second<\/li><\/ul>/);
    assert.match(html, /<ol><li>one<\/li><li>two<\/li><\/ol>/);
    assert.match(html, /<pre><code>raw &lt;b&gt;<\/code><\/pre>/);
    assert.match(html, /<a href="https:\/\/example.org\/a\?b=1&amp;c=2" rel="nofollow noopener noreferrer">docs<\/a>/);
    assertSafe(html);
  });

  const attacks: [string, string][] = [
    ["script tag", "<script>alert(1)</script>"],
    ["script in list", "- <script src=//evil.example/x.js></script>"],
    ["img onerror", '<img src=x onerror="alert(1)">'],
    ["svg onload", "<svg/onload=alert(1)>"],
    ["javascript: link", "[click](javascript:alert(1))"],
    ["JaVaScRiPt: with entity", "[click](JaVaScRiPt:alert(document.cookie))"],
    ["javascript: with tab", "[x](java\tscript:alert(1))"],
    ["data: link", "[x](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)"],
    ["vbscript: link", "[x](vbscript:msgbox(1))"],
    ["quote breaking out of href", '[x](https://ok.example/"onmouseover="alert(1))'],
    ["iframe", '<iframe src="https://evil.example"></iframe>'],
    ["style attribute", '<p style="background:url(javascript:alert(1))">x</p>'],
    ["event handler in bold", "**<a href=x onclick=alert(1)>x</a>**"],
    ["nested code span", "`<script>`alert(1)`</script>`"],
    ["private-use marker injection", "\uE0000\uE001 and `x`"],
  ];
  for (const [name, input] of attacks) {
    test(`strips ${name}`, () => {
      const html = renderMarkdown(input);
      assertSafe(html);
      assert.doesNotMatch(html, /<script/i);
      assert.doesNotMatch(html, /<(img|svg|iframe)/i);
      assert.doesNotMatch(html, /href="javascript/i);
    });
  }

  test("raw HTML shows as text, not markup", () => {
    assert.equal(renderMarkdown("<b>hi</b>"), "<p>&lt;b&gt;hi&lt;/b&gt;</p>");
  });

  test("link targets: only absolute http(s) and mailto", () => {
    assert.ok(isSafeLinkTarget("https://a.example"));
    assert.ok(isSafeLinkTarget("mailto:ops@a.example"));
    for (const bad of ["javascript:alert(1)", "/relative", "//evil.example", "data:text/html,x", "ftp://x.example"]) {
      assert.ok(!isSafeLinkTarget(bad), bad);
    }
  });

  test("plain text for feeds and emails", () => {
    assert.equal(markdownToText("**Lag** of [node](https://a.example)"), "Lag of node (https://a.example)");
  });
});

describe("component states", () => {
  const now = new Date("2026-03-01T12:00:00Z");
  const base = {
    nodeId: "n",
    blockIntervalMs: 3000,
    lastSeenAt: now,
    sampleTime: new Date(now.getTime() - 5_000),
    lagBlocks: 0,
    headTime: new Date(now.getTime() - 3_000),
    headAgeMs: 3_000,
    syncing: false,
  };
  test("node: silent agent, lag tiers from the block interval, syncing", () => {
    assert.equal(deriveNodeState(base, now), "operational");
    assert.equal(deriveNodeState({ ...base, lagBlocks: 10 }, now), "degraded"); // threshold 10 at 3 s
    assert.equal(deriveNodeState({ ...base, lagBlocks: 9 }, now), "operational");
    assert.equal(deriveNodeState({ ...base, lagBlocks: 100 }, now), "partial_outage");
    assert.equal(deriveNodeState({ ...base, syncing: true }, now), "degraded");
    assert.equal(deriveNodeState({ ...base, headTime: new Date(now.getTime() - 61_000) }, now), "degraded");
    assert.equal(deriveNodeState({ ...base, headTime: new Date(now.getTime() - 181_000) }, now), "partial_outage");
    const silent = {
      ...base,
      lastSeenAt: new Date(now.getTime() - 31_000),
      sampleTime: new Date(now.getTime() - 31_000),
    };
    assert.equal(deriveNodeState(silent, now), "major_outage");
    assert.equal(deriveNodeState({ ...base, lastSeenAt: null, sampleTime: null }, now), "unknown");
    // A 12 s chain (Ethereum) tolerates 3 blocks, not 10.
    assert.equal(deriveNodeState({ ...base, blockIntervalMs: 12_000, lagBlocks: 3 }, now), "degraded");
  });

  test("endpoint: quorum across vantage points, slow probes, stale data", () => {
    const p = (vp: string, ok: boolean, totalMs: number | null = 100, ageMs = 60_000) => ({
      endpointId: "e",
      vantagePointId: vp,
      time: new Date(now.getTime() - ageMs),
      ok,
      totalMs,
    });
    assert.equal(deriveEndpointState([p("a", true), p("b", true)], now), "operational");
    assert.equal(deriveEndpointState([p("a", true), p("b", false)], now), "degraded");
    assert.equal(deriveEndpointState([p("a", true), p("b", false), p("c", false)], now), "partial_outage");
    assert.equal(deriveEndpointState([p("a", false), p("b", false)], now), "major_outage");
    assert.equal(deriveEndpointState([p("a", true, 2500), p("b", true, 2600)], now), "degraded");
    assert.equal(deriveEndpointState([p("a", false, null, 11 * 60_000)], now), "unknown");
    assert.equal(deriveEndpointState([], now), "unknown");
  });

  test("overall state is the worst; day levels", () => {
    assert.equal(worstState(["operational", "degraded", "maintenance"]), "degraded");
    assert.equal(worstState([]), "operational");
    // An open incident sets a floor for the banner: never "All systems operational" while one is active.
    assert.equal(worstState(["operational", incidentImpactState("minor")]), "degraded");
    assert.equal(worstState(["operational", incidentImpactState("major")]), "partial_outage");
    assert.equal(worstState(["degraded", incidentImpactState("critical")]), "major_outage");
    assert.equal(worstState(["operational", incidentImpactState("none")]), "operational");
    assert.equal(dayLevel(null, 0), "none");
    assert.equal(dayLevel(1, 0), "ok");
    assert.equal(dayLevel(1, 0.2), "minor");
    assert.equal(dayLevel(0.98, 0), "partial");
    assert.equal(dayLevel(0.5, 0), "major");
  });
});

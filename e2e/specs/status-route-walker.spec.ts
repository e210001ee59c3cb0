import { readdirSync, statSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { expect, test, type APIRequestContext } from "@playwright/test";
import { createApiAccount, uniqueSuffix, type ApiAccount } from "../fixtures/api-account.js";
import { apiJson, enrollNodeInUi } from "../fixtures/status-fixtures.js";

/**
 * Route walker (Uptime Kuma CVE-2026-32230 class): two organizations with public pages, private
 * unlisted nodes and a draft page. Every public status route of every page — HTML, feeds, JSON,
 * badges, subscription links — is fetched, and no response may mention anything the page does not
 * list: the other organization's names, ids, node URLs/IPs, its components; this organization's
 * unlisted node; any node id or local RPC URL; directory endpoint URLs.
 * The set of walked route patterns must equal the route files under apps/web/src/app/status:
 * adding a public route without walking it fails this test.
 */
const STATUS_APP_DIR = resolve(import.meta.dirname, "../../apps/web/src/app/status");

function routePatterns(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) out.push(...routePatterns(full));
    else if (/^(page\.tsx|route\.ts)$/.test(name)) out.push(relative(STATUS_APP_DIR, dir).split("\\").join("/"));
  }
  return out.sort();
}

interface Org {
  account: ApiAccount;
  listedNode: { nodeId: string; name: string; url: string };
  privateNode: { nodeId: string; name: string; url: string };
  endpoint: { id: string; url: string };
  page: { id: string; slug: string };
  draft: { id: string; slug: string };
  componentIds: string[];
  incidentTitle: string;
}

test.describe("status route walker", () => {
  const orgs: Org[] = [];

  test.beforeAll(async ({ browser, baseURL }) => {
    test.setTimeout(180_000);
    for (const label of ["walka", "walkb"]) {
      const sfx = uniqueSuffix();
      const account = await createApiAccount(baseURL!, label);
      const org = account.organization;
      const listedUrl = `http://10.66.${parseInt(sfx.slice(0, 2), 16)}.7:8091/listed-${sfx}`;
      const privateUrl = `http://10.67.${parseInt(sfx.slice(2, 4), 16)}.9:8091/private-${sfx}`;
      const listed = await enrollNodeInUi(browser, account, { name: `${label}-listed-${sfx}`, localRpcUrl: listedUrl });
      const priv = await enrollNodeInUi(browser, account, { name: `${label}-private-${sfx}`, localRpcUrl: privateUrl });
      // Submissions must resolve: offline, a loopback name (the stack runs with PROBE_ALLOW_PRIVATE).
      const endpointUrl = `http://localhost:18099/rpc-${label}-${sfx}`;
      const submitted = await apiJson<{ id: string }>(account, "post", "/api/v1/endpoints", {
        url: endpointUrl,
        network: "hive",
        name: `${label} endpoint ${sfx}`,
      });
      const page = await apiJson<{ id: string }>(account, "post", `/api/orgs/${org.id}/status-pages`, {
        slug: `${label}-${sfx}`,
        title: `${label} status ${sfx}`,
        isPublic: true,
      });
      const draft = await apiJson<{ id: string }>(account, "post", `/api/orgs/${org.id}/status-pages`, {
        slug: `${label}-draft-${sfx}`,
        title: `${label} draft ${sfx}`,
        isPublic: false,
      });
      const componentIds: string[] = [];
      for (const [ref, displayName] of [
        [`node:${listed.nodeId}`, `${label} public node ${sfx}`],
        [`endpoint:${submitted.id}`, `${label} public endpoint ${sfx}`],
      ]) {
        const c = await apiJson<{ id: string }>(
          account,
          "post",
          `/api/orgs/${org.id}/status-pages/${page.id}/components`,
          {
            ref,
            displayName,
          },
        );
        componentIds.push(c.id);
      }
      // The draft page lists the private node: still nothing of it may leak.
      await apiJson(account, "post", `/api/orgs/${org.id}/status-pages/${draft.id}/components`, {
        ref: `node:${priv.nodeId}`,
        displayName: `${label} draft-only ${sfx}`,
      });
      const incidentTitle = `${label} incident ${sfx}`;
      await apiJson(account, "post", `/api/orgs/${org.id}/status-pages/${page.id}/incidents`, {
        title: incidentTitle,
        body: `Investigating **lag** <script>alert("${sfx}")</script> [x](javascript:alert(1))`,
        componentIds: [componentIds[0]],
      });
      orgs.push({
        account,
        listedNode: { nodeId: listed.nodeId, name: `${label}-listed-${sfx}`, url: listedUrl },
        privateNode: { nodeId: priv.nodeId, name: `${label}-private-${sfx}`, url: privateUrl },
        endpoint: { id: submitted.id, url: endpointUrl },
        page: { id: page.id, slug: `${label}-${sfx}` },
        draft: { id: draft.id, slug: `${label}-draft-${sfx}` },
        componentIds,
        incidentTitle,
      });
    }
  });

  test.afterAll(async () => {
    for (const o of orgs) await o.account.api.dispose();
  });

  /** Every public route of a page, keyed by its route pattern. */
  function walks(o: Org, foreign: Org): Record<string, { path: string; method?: "get" | "post"; status: number[] }[]> {
    const p = `/status/${o.page.slug}`;
    return {
      "[slug]": [{ path: p, status: [200] }],
      "[slug]/rss": [{ path: `${p}/rss`, status: [200] }],
      "[slug]/atom": [{ path: `${p}/atom`, status: [200] }],
      "[slug]/feed.json": [{ path: `${p}/feed.json`, status: [200] }],
      "[slug]/summary.json": [{ path: `${p}/summary.json`, status: [200] }],
      "[slug]/badge/[file]": [
        { path: `${p}/badge/page.svg`, status: [200] },
        { path: `${p}/badge/page.svg?metric=uptime`, status: [200] },
        ...o.componentIds.map((id) => ({ path: `${p}/badge/${id}.svg`, status: [200] })),
        ...o.componentIds.map((id) => ({ path: `${p}/badge/${id}.svg?metric=uptime`, status: [200] })),
        // Another page's component, a node id, an endpoint id: all the same 404.
        ...foreign.componentIds.map((id) => ({ path: `${p}/badge/${id}.svg`, status: [404] })),
        { path: `${p}/badge/${o.privateNode.nodeId}.svg`, status: [404] },
        { path: `${p}/badge/${o.endpoint.id}.svg`, status: [404] },
      ],
      "[slug]/subscription": [{ path: `${p}/subscription`, method: "post", status: [303] }],
      "[slug]/subscription/confirm": [{ path: `${p}/subscription/confirm?token=${"x".repeat(43)}`, status: [303] }],
      "[slug]/subscription/unsubscribe": [
        { path: `${p}/subscription/unsubscribe?token=${"y".repeat(43)}`, status: [200] },
        { path: `${p}/subscription/unsubscribe?token=${"y".repeat(43)}`, method: "post", status: [404] },
      ],
    };
  }

  async function fetchBody(api: APIRequestContext, w: { path: string; method?: "get" | "post" }) {
    const res =
      w.method === "post"
        ? await api.post(w.path, { form: { kind: "email", target: "walker@e2e.rpcpulse.dev" }, maxRedirects: 0 })
        : await api.get(w.path, { maxRedirects: 0 });
    return { status: res.status(), text: await res.text(), location: res.headers()["location"] ?? "" };
  }

  test("walks every public status route and finds nothing the page does not list", async ({ playwright, baseURL }) => {
    test.setTimeout(120_000);
    // An anonymous client: public pages need no session.
    const anon = await playwright.request.newContext({ baseURL });
    try {
      const files = routePatterns(STATUS_APP_DIR);
      for (const [i, o] of orgs.entries()) {
        const foreign = orgs[1 - i]!;
        const plan = walks(o, foreign);
        expect(Object.keys(plan).sort(), "every route under app/status is walked").toEqual(files);
        const forbidden = [
          foreign.account.organization.id,
          foreign.account.organization.slug,
          foreign.account.organization.name,
          foreign.listedNode.nodeId,
          foreign.listedNode.name,
          foreign.listedNode.url,
          new URL(foreign.listedNode.url).hostname,
          foreign.privateNode.nodeId,
          foreign.privateNode.name,
          foreign.page.slug,
          foreign.page.id,
          foreign.draft.slug,
          foreign.endpoint.id,
          foreign.endpoint.url,
          foreign.incidentTitle,
          ...foreign.componentIds,
          // This organization's private parts.
          o.account.organization.id,
          o.privateNode.nodeId,
          o.privateNode.name,
          o.privateNode.url,
          new URL(o.privateNode.url).hostname,
          o.listedNode.nodeId,
          o.listedNode.url,
          new URL(o.listedNode.url).hostname,
          o.listedNode.name,
          o.draft.slug,
          o.draft.id,
          o.endpoint.id,
          o.endpoint.url,
          "draft-only",
        ];
        let walked = 0;
        for (const [pattern, list] of Object.entries(plan)) {
          for (const w of list) {
            const { status, text, location } = await fetchBody(anon, w);
            expect(w.status, `${w.method ?? "get"} ${w.path} (${pattern}) answered ${status}`).toContain(status);
            for (const secret of forbidden) {
              expect(text.includes(secret) || location.includes(secret), `${w.path} mentions ${secret}`).toBe(false);
            }
            // The sanitizer ran: no live script or javascript: link from the incident body.
            expect(text).not.toMatch(/<script>alert/);
            expect(text).not.toMatch(/href="javascript:/i);
            walked++;
          }
        }
        expect(walked).toBeGreaterThan(15);
        // What the page does list is there.
        const html = await (await anon.get(`/status/${o.page.slug}`)).text();
        expect(html).toContain(o.incidentTitle);
        expect(html).toContain("public node");
      }
      // Draft pages and their routes are 404 for everyone.
      for (const o of orgs) {
        for (const suffix of ["", "/rss", "/atom", "/feed.json", "/summary.json", "/badge/page.svg"]) {
          expect((await anon.get(`/status/${o.draft.slug}${suffix}`)).status(), `draft ${suffix}`).toBe(404);
        }
      }
      // Host-header mapping: an unverified custom domain serves nothing (the landing page would be 200),
      // and a custom host never reaches another page's slug, the API or the app.
      const mapped = await anon.get("/", { headers: { host: "status.not-verified.example" } });
      expect(mapped.status()).toBe(404);
      for (const path of [
        `/status/${orgs[0]!.page.slug}`,
        `/status/${orgs[0]!.page.slug}/summary.json`,
        "/api/v1/chains",
        "/app",
        "/directory",
      ]) {
        const onCustomHost = await anon.get(path, {
          headers: { host: "status.not-verified.example" },
          maxRedirects: 0,
        });
        expect(onCustomHost.status(), `custom host ${path}`).toBe(404);
      }
    } finally {
      await anon.dispose();
    }
  });
});

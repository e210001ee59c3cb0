import { timingSafeEqual } from "node:crypto";
import { createLogger } from "@rpcpulse/config";
import { statusSnapshotGeneration } from "@rpcpulse/services/snapshot-cache";
import { getEnv, getInternalOrigin } from "@/env.js";
import { PageResponseCache, pageHtml, type CacheOutcome } from "./page-response-cache.js";
import { subscriptionNoticeKey } from "./subscription-notice.js";

/**
 * The proxy's side of the status-page response cache (page-response-cache.ts): which requests it
 * answers, the process-wide cache, and the internal render request. A render request carries a
 * per-process random token; only then does the proxy give the page the placeholder nonce.
 */

const RENDER_HEADER = "x-rpcpulse-page-render";
const STATE = Symbol.for("rpcpulse.statusPageCache");

interface CacheState {
  cache: PageResponseCache;
  token: string;
  placeholder: string;
}

function randomHex(bytes: number): string {
  const buf = new Uint8Array(bytes);
  crypto.getRandomValues(buf);
  return Array.from(buf, (b) => b.toString(16).padStart(2, "0")).join("");
}

function state(): CacheState {
  const holder = globalThis as { [STATE]?: CacheState };
  const existing = holder[STATE];
  if (existing) return existing;
  const env = getEnv();
  const logger = createLogger({ name: "web", level: env.LOG_LEVEL, format: env.LOG_FORMAT });
  const token = randomHex(32);
  const placeholder = `rpcpulsenonce${randomHex(16)}`;
  const fresh = env.STATUS_PAGE_CACHE_FRESH_MS;
  const cache = new PageResponseCache(
    {
      freshMs: fresh,
      maxStaleMs: fresh * 3,
      keepOnErrorMs: 15 * 60_000,
      maxEntries: 200,
      maxBytes: 256 * 1024 * 1024,
      generation: statusSnapshotGeneration,
    },
    placeholder,
    (key) =>
      fetch(`${getInternalOrigin()}${key}`, {
        headers: { [RENDER_HEADER]: token, accept: "text/html" },
        redirect: "manual",
        cache: "no-store",
        signal: AbortSignal.timeout(120_000),
      }),
    (key, error) =>
      logger.warn({ key, err: error instanceof Error ? error.message : String(error) }, "status page render failed"),
  );
  holder[STATE] = { cache, token, placeholder };
  return holder[STATE];
}

/** The nonce placeholder when this is the cache's own render request, else null. */
export function renderPlaceholderFor(headers: Headers): string | null {
  const sent = headers.get(RENDER_HEADER);
  if (!sent) return null;
  const s = state();
  const a = Buffer.from(sent);
  const b = Buffer.from(s.token);
  return a.length === b.length && timingSafeEqual(a, b) ? s.placeholder : null;
}

/**
 * Cache key of a public status page request (after the Host-header rewrite): "/status/<slug>" plus
 * a known subscription notice; null for anything else (feeds, badges, unknown query values count
 * as the plain page, odd paths pass through).
 */
export function statusPageCacheKey(pathname: string, search: URLSearchParams): string | null {
  const match = /^\/status\/([A-Za-z0-9~.%-]{1,300})\/?$/.exec(pathname);
  if (!match) return null;
  const notice = subscriptionNoticeKey(search.get("subscription"));
  return `/status/${match[1]}${notice ? `?subscription=${notice}` : ""}`;
}

/** The cached page (or a fresh 404/410) as a response with the visitor's nonce, or null to let Next answer. */
export async function answerFromPageCache(input: {
  request: Request;
  pathname: string;
  search: URLSearchParams;
  nonce: string;
  csp: string;
}): Promise<Response | null> {
  const { request } = input;
  if (getEnv().STATUS_PAGE_CACHE_FRESH_MS === 0) return null;
  if (request.method !== "GET" && request.method !== "HEAD") return null;
  // Client-side navigations and prefetches ask for the React payload, not HTML.
  if (request.headers.has("rsc") || request.headers.has("next-router-state-tree")) return null;
  const key = statusPageCacheKey(input.pathname, input.search);
  if (!key) return null;
  const answer = await state().cache.get(key);
  if (!answer.page) return null;
  // 200 from the cache, or the 404/410 a render just answered (the cache dropped that page).
  return new Response(request.method === "HEAD" ? null : pageHtml(answer.page, input.nonce), {
    status: answer.page.status,
    headers: cacheHeaders(answer.page.contentType, input.csp, answer.outcome),
  });
}

function cacheHeaders(contentType: string, csp: string, outcome: CacheOutcome): Headers {
  return new Headers({
    "content-type": contentType,
    "content-security-policy": csp,
    // The HTML carries this visitor's nonce: shared caches must not keep it.
    "cache-control": "private, no-cache",
    "x-status-page-cache": outcome,
  });
}

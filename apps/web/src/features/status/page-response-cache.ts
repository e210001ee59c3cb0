/**
 * Full-response cache of public status pages, used by proxy.ts.
 *
 * A status page is the same for every visitor but its HTML carries the CSP nonce of the request,
 * which makes Next render it per request (100 components × 90 days is ~2 MB of HTML, 50–150 ms).
 * This cache renders a page once with a placeholder nonce (an internal request to this server), keeps
 * the HTML split at the placeholder, and answers each visitor by joining the parts with that
 * visitor's fresh nonce: the CSP stays strict and per request while the page costs a string join.
 *
 * - Fresh for `freshMs`; then served stale while one background render replaces it.
 * - Too old (`maxStaleMs`) or invalidated (a write in this process bumped the status-snapshot
 *   generation): rendered before answering; concurrent requests share one render.
 * - A failed render (database down, 5xx, no answer) keeps serving the last good page up to
 *   `keepOnErrorMs`: the status page is most needed when something is broken.
 * - A render answering 404 or 410 (page unpublished, deleted or renamed) drops the entry at once and
 *   that status is the answer (its HTML, with the visitor's nonce, when it is HTML); any other answer
 *   that cannot be kept (3xx, cookies, not HTML) drops it too and lets the request through.
 * - Only 200 text/html answers without Set-Cookie are kept; the cache is bounded in entries and bytes.
 */

export interface RenderedPage {
  /** 200 for a kept page; 404 or 410 for a "gone" answer (never kept). */
  status: number;
  contentType: string;
  /** The HTML split at the placeholder nonce. */
  parts: string[];
  bytes: number;
}

export type CacheOutcome = "hit" | "stale" | "miss" | "stale-error" | "bypass" | "gone";

export interface CachedAnswer {
  outcome: CacheOutcome;
  /** null: let the request through (Next answers it). */
  page: RenderedPage | null;
}

/** What one render gave: a page to keep, a 404/410, or another answer not to keep; a failure throws. */
type RenderResult =
  { kind: "page"; page: RenderedPage } | { kind: "gone"; page: RenderedPage | null } | { kind: "pass" };

const GONE_STATUSES = new Set([404, 410]);

export interface PageCacheOptions {
  freshMs: number;
  maxStaleMs: number;
  keepOnErrorMs: number;
  maxEntries: number;
  maxBytes: number;
  /** Current invalidation generation: an entry stored under another generation is not served fresh. */
  generation: () => number;
  now?: () => number;
}

export type RenderFn = (key: string, placeholder: string) => Promise<Response>;

interface Entry {
  page: RenderedPage;
  storedAt: number;
  generation: number;
}

export class PageResponseCache {
  private readonly entries = new Map<string, Entry>();
  private readonly inflight = new Map<string, Promise<RenderResult | null>>();
  private bytes = 0;
  private readonly now: () => number;

  constructor(
    private readonly options: PageCacheOptions,
    private readonly placeholder: string,
    private readonly render: RenderFn,
    private readonly onError: (key: string, error: unknown) => void = () => {},
  ) {
    this.now = options.now ?? Date.now;
  }

  /** The page for `key`, from the cache or rendered now; `page: null` = let the request through. */
  async get(key: string): Promise<CachedAnswer> {
    const entry = this.entries.get(key);
    const now = this.now();
    if (entry) {
      const age = now - entry.storedAt;
      const current = entry.generation === this.options.generation();
      if (current && age < this.options.freshMs) return { outcome: "hit", page: entry.page };
      if (current && age < this.options.maxStaleMs) {
        void this.refresh(key);
        return { outcome: "stale", page: entry.page };
      }
    }
    const result = await this.refresh(key);
    if (result?.kind === "page") return { outcome: "miss", page: result.page };
    if (result?.kind === "gone") return { outcome: "gone", page: result.page };
    if (result?.kind === "pass") return { outcome: "bypass", page: null };
    const last = this.entries.get(key);
    if (last && now - last.storedAt < this.options.keepOnErrorMs) return { outcome: "stale-error", page: last.page };
    return { outcome: "bypass", page: null };
  }

  get size(): { entries: number; bytes: number } {
    return { entries: this.entries.size, bytes: this.bytes };
  }

  /**
   * One render per key at a time: a page is stored, any other answer drops the entry; resolves null
   * when the render failed (5xx, network), which keeps the entry for the stale-on-error path.
   */
  private refresh(key: string): Promise<RenderResult | null> {
    const running = this.inflight.get(key);
    if (running) return running;
    const generation = this.options.generation();
    const job = this.renderOnce(key)
      .then((result) => {
        if (result.kind === "page") this.store(key, result.page, generation);
        else this.drop(key);
        return result;
      })
      .catch((error: unknown) => {
        this.onError(key, error);
        return null;
      })
      .finally(() => this.inflight.delete(key));
    this.inflight.set(key, job);
    return job;
  }

  private async renderOnce(key: string): Promise<RenderResult> {
    const response = await this.render(key, this.placeholder);
    const contentType = response.headers.get("content-type") ?? "";
    const html = contentType.startsWith("text/html") && !response.headers.has("set-cookie");
    if (response.status >= 500) {
      await response.body?.cancel();
      throw new Error(`render of ${key} answered HTTP ${response.status}`);
    }
    if (GONE_STATUSES.has(response.status)) {
      if (!html) {
        await response.body?.cancel();
        return { kind: "gone", page: null };
      }
      return { kind: "gone", page: await this.readPage(response, contentType) };
    }
    if (response.status !== 200 || !html) {
      await response.body?.cancel();
      return { kind: "pass" };
    }
    return { kind: "page", page: await this.readPage(response, contentType) };
  }

  private async readPage(response: Response, contentType: string): Promise<RenderedPage> {
    const text = await response.text();
    return { status: response.status, contentType, parts: text.split(this.placeholder), bytes: text.length };
  }

  private drop(key: string): void {
    const old = this.entries.get(key);
    if (!old) return;
    this.entries.delete(key);
    this.bytes -= old.page.bytes;
  }

  private store(key: string, page: RenderedPage, generation: number): void {
    this.drop(key);
    if (page.bytes > this.options.maxBytes) return;
    this.entries.set(key, { page, storedAt: this.now(), generation });
    this.bytes += page.bytes;
    for (const [k, e] of this.entries) {
      if (this.entries.size <= this.options.maxEntries && this.bytes <= this.options.maxBytes) break;
      this.entries.delete(k);
      this.bytes -= e.page.bytes;
    }
  }
}

/** The HTML of a cached page with the request's nonce in place of the placeholder. */
export function pageHtml(page: RenderedPage, nonce: string): string {
  return page.parts.join(nonce);
}

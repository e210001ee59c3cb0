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
 * - A failed render (database down, 5xx) keeps serving the last good page up to `keepOnErrorMs`:
 *   the status page is most needed when something is broken.
 * - Only 200 text/html answers without Set-Cookie are kept; the cache is bounded in entries and bytes.
 */

export interface RenderedPage {
  status: number;
  contentType: string;
  /** The HTML split at the placeholder nonce. */
  parts: string[];
  bytes: number;
}

export type CacheOutcome = "hit" | "stale" | "miss" | "stale-error" | "bypass";

export interface CachedAnswer {
  outcome: CacheOutcome;
  page: RenderedPage | null;
}

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
  private readonly inflight = new Map<string, Promise<RenderedPage | null>>();
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
    const page = await this.refresh(key);
    if (page) return { outcome: "miss", page };
    const last = this.entries.get(key);
    if (last && now - last.storedAt < this.options.keepOnErrorMs) return { outcome: "stale-error", page: last.page };
    return { outcome: "bypass", page: null };
  }

  get size(): { entries: number; bytes: number } {
    return { entries: this.entries.size, bytes: this.bytes };
  }

  /** One render per key at a time; resolves null when the answer must not be cached. */
  private refresh(key: string): Promise<RenderedPage | null> {
    const running = this.inflight.get(key);
    if (running) return running;
    const generation = this.options.generation();
    const job = this.renderOnce(key)
      .then((page) => {
        if (page) this.store(key, page, generation);
        return page;
      })
      .catch((error: unknown) => {
        this.onError(key, error);
        return null;
      })
      .finally(() => this.inflight.delete(key));
    this.inflight.set(key, job);
    return job;
  }

  private async renderOnce(key: string): Promise<RenderedPage | null> {
    const response = await this.render(key, this.placeholder);
    const contentType = response.headers.get("content-type") ?? "";
    if (response.status !== 200 || !contentType.startsWith("text/html") || response.headers.has("set-cookie")) {
      await response.body?.cancel();
      if (response.status >= 500) throw new Error(`render of ${key} answered HTTP ${response.status}`);
      return null;
    }
    const html = await response.text();
    return { status: 200, contentType, parts: html.split(this.placeholder), bytes: html.length };
  }

  private store(key: string, page: RenderedPage, generation: number): void {
    if (page.bytes > this.options.maxBytes) return;
    const old = this.entries.get(key);
    if (old) {
      this.bytes -= old.page.bytes;
      this.entries.delete(key);
    }
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

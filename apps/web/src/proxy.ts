import { NextResponse, type NextRequest } from "next/server";
import { getEnv, isDevServer } from "./env.js";
import { answerFromPageCache, renderPlaceholderFor } from "./features/status/page-cache-proxy.js";
import { rewriteForHost } from "./features/status/page-lookup.js";

function freshNonce(): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return btoa(String.fromCharCode(...bytes));
}

function contentSecurityPolicy(nonce: string): string {
  const isDev = isDevServer();
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${isDev ? " 'unsafe-eval'" : ""}`,
    `style-src 'self'${isDev ? " 'unsafe-inline'" : ` 'nonce-${nonce}'`}`,
    "img-src 'self' data: blob:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

/**
 * Content-Security-Policy with a fresh nonce per page request. Next reads the nonce from the
 * request's CSP header and puts it on its own inline and bootstrap scripts; nothing else may run.
 * Public status pages are answered from the page response cache (features/status/page-cache-proxy.ts)
 * with the visitor's nonce put in; the cache's own render request gets its placeholder nonce.
 */
export async function proxy(request: NextRequest): Promise<Response> {
  // A status page on its own verified domain: map the Host header to /status/~<host>/… (see
  // features/status/page-lookup.ts) for every path, API and prefetches included, so a custom host
  // serves that page only; the page answers 404 unless that domain is verified.
  const rewrite = rewriteForHost({
    host: request.headers.get("host"),
    appHost: new URL(getEnv().APP_BASE_URL).host,
    pathname: request.nextUrl.pathname,
  });
  // The app's own host: API routes and prefetches need no nonce.
  if (!rewrite && (request.nextUrl.pathname.startsWith("/api/") || isPrefetch(request.headers))) {
    return NextResponse.next();
  }

  const placeholder = renderPlaceholderFor(request.headers);
  const nonce = placeholder ?? freshNonce();
  const csp = contentSecurityPolicy(nonce);
  if (!placeholder) {
    const cached = await answerFromPageCache({
      request,
      pathname: rewrite ?? request.nextUrl.pathname,
      search: request.nextUrl.searchParams,
      nonce,
      csp,
    });
    if (cached) return cached;
  }

  const requestHeaders = new Headers(request.headers);
  requestHeaders.set("x-nonce", nonce);
  requestHeaders.set("content-security-policy", csp);
  const response = rewrite
    ? NextResponse.rewrite(new URL(rewrite + request.nextUrl.search, request.url), {
        request: { headers: requestHeaders },
      })
    : NextResponse.next({ request: { headers: requestHeaders } });
  response.headers.set("content-security-policy", csp);
  return response;
}

function isPrefetch(headers: Headers): boolean {
  return headers.has("next-router-prefetch") || headers.get("purpose") === "prefetch";
}

// Every request but static files: a custom host must not reach /api or anything else by skipping the
// proxy (prefetch headers included); the app host's API and prefetches return straight away above.
export const config = {
  matcher: ["/((?!_next/static|_next/image|favicon.ico).*)"],
};

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
  const placeholder = renderPlaceholderFor(request.headers);
  const nonce = placeholder ?? freshNonce();
  const csp = contentSecurityPolicy(nonce);

  // A status page on its own verified domain: map the Host header to /status/~<host>/… (see
  // features/status/page-lookup.ts); the page answers 404 unless that domain is verified.
  const rewrite = rewriteForHost({
    host: request.headers.get("host"),
    appHost: new URL(getEnv().APP_BASE_URL).host,
    pathname: request.nextUrl.pathname,
  });
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

export const config = {
  matcher: [
    {
      source: "/((?!api/|_next/static|_next/image|favicon.ico).*)",
      missing: [
        { type: "header", key: "next-router-prefetch" },
        { type: "header", key: "purpose", value: "prefetch" },
      ],
    },
  ],
};

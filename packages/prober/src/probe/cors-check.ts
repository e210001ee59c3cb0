import type { SafeHttpClient } from "../ssrf/http-client.js";
import type { CorsCapability } from "./types.js";

/** Origin sent in CORS preflights (a browser-based consumer of the directory). */
export const CORS_TEST_ORIGIN = "https://rpcpulse.example";

function header(value: string | string[] | undefined): string | null {
  if (value === undefined) return null;
  return Array.isArray(value) ? value.join(", ") : value;
}

/**
 * Sends the preflight a browser sends before a JSON POST (or a GET for REST), and records whether
 * a web page on another origin could call the endpoint. Chainlist users see "red" for endpoints
 * without CORS, so the directory shows it as a column.
 */
export async function checkCors(client: SafeHttpClient, url: string, method: "POST" | "GET"): Promise<CorsCapability> {
  try {
    const res = await client.request(url, {
      method: "OPTIONS",
      headers: {
        origin: CORS_TEST_ORIGIN,
        "access-control-request-method": method,
        ...(method === "POST" ? { "access-control-request-headers": "content-type" } : {}),
      },
      followRedirects: false,
    });
    const allowOrigin = header(res.headers["access-control-allow-origin"]);
    const allowMethods = header(res.headers["access-control-allow-methods"]);
    const allowHeaders = header(res.headers["access-control-allow-headers"]);
    const originOk = allowOrigin === "*" || allowOrigin === CORS_TEST_ORIGIN;
    const headersOk =
      method === "GET" || (allowHeaders !== null && /(^|,)\s*(\*|content-type)\s*(,|$)/i.test(allowHeaders));
    const statusOk = res.status >= 200 && res.status < 300;
    return { allowed: originOk && headersOk && statusOk, status: res.status, allowOrigin, allowMethods, allowHeaders };
  } catch {
    return { allowed: false, status: null, allowOrigin: null, allowMethods: null, allowHeaders: null };
  }
}

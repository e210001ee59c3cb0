import "server-only";
import { cookies } from "next/headers";

interface ParsedCookie {
  name: string;
  value: string;
  maxAge?: number;
  expires?: Date;
  path?: string;
  httpOnly: boolean;
  secure: boolean;
  sameSite?: "lax" | "strict" | "none";
}

/** Parse one Set-Cookie header value (as produced by better-auth). */
export function parseSetCookie(header: string): ParsedCookie | null {
  const [pair, ...attributes] = header.split(";").map((p) => p.trim());
  if (!pair) return null;
  const eq = pair.indexOf("=");
  if (eq <= 0) return null;
  const cookie: ParsedCookie = {
    name: pair.slice(0, eq),
    value: decodeURIComponent(pair.slice(eq + 1)),
    httpOnly: false,
    secure: false,
  };
  for (const attribute of attributes) {
    const [rawKey, ...rest] = attribute.split("=");
    const key = (rawKey ?? "").trim().toLowerCase();
    const value = rest.join("=").trim();
    if (key === "max-age") cookie.maxAge = Number(value);
    else if (key === "expires") cookie.expires = new Date(value);
    else if (key === "path") cookie.path = value;
    else if (key === "httponly") cookie.httpOnly = true;
    else if (key === "secure") cookie.secure = true;
    else if (key === "samesite") {
      const v = value.toLowerCase();
      if (v === "lax" || v === "strict" || v === "none") cookie.sameSite = v;
    }
  }
  return cookie;
}

/** Pass better-auth's Set-Cookie headers on to the browser from a server action. */
export async function applySetCookies(setCookies: string[]): Promise<void> {
  const jar = await cookies();
  for (const header of setCookies) {
    const c = parseSetCookie(header);
    if (!c) continue;
    jar.set(c.name, c.value, {
      httpOnly: c.httpOnly,
      secure: c.secure,
      path: c.path ?? "/",
      ...(c.sameSite ? { sameSite: c.sameSite } : {}),
      ...(c.maxAge !== undefined && Number.isFinite(c.maxAge) ? { maxAge: c.maxAge } : {}),
      ...(c.expires && !Number.isNaN(c.expires.getTime()) ? { expires: c.expires } : {}),
    });
  }
}

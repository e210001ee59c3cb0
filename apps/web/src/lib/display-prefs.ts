import { isValidTimeZone, UTC } from "./format.js";

/**
 * The viewer's display preferences, kept in cookies so server components render them in the first
 * HTML (no flash, no client-only pass):
 *   rp-tz     the browser's IANA zone (Intl), written by the browser on each load when it changed;
 *   rp-time   "local" (default) or "utc": the UTC toggle;
 *   rp-theme  "system" (default), "light" or "dark".
 * Cookies belong to the browser, so a preference follows the viewer on that device (signed in or not).
 */

export const TZ_COOKIE = "rp-tz";
export const TIME_MODE_COOKIE = "rp-time";
export const THEME_COOKIE = "rp-theme";
export const PREF_COOKIE_MAX_AGE = 60 * 60 * 24 * 365;

export const TIME_MODES = ["local", "utc"] as const;
export type TimeMode = (typeof TIME_MODES)[number];
export const THEMES = ["system", "light", "dark"] as const;
export type Theme = (typeof THEMES)[number];

export interface DisplayPrefs {
  /** The browser's zone, or null before the browser told us. */
  browserZone: string | null;
  mode: TimeMode;
  theme: Theme;
}

export function parseTimeMode(value: string | undefined | null): TimeMode {
  return value === "utc" ? "utc" : "local";
}

export function parseTheme(value: string | undefined | null): Theme {
  return value === "light" || value === "dark" ? value : "system";
}

export function parseBrowserZone(value: string | undefined | null): string | null {
  return value && isValidTimeZone(value) ? value : null;
}

/** Preferences from a cookie lookup (server: next/headers cookies; client: document.cookie). */
export function readDisplayPrefs(get: (name: string) => string | undefined | null): DisplayPrefs {
  return {
    browserZone: parseBrowserZone(get(TZ_COOKIE)),
    mode: parseTimeMode(get(TIME_MODE_COOKIE)),
    theme: parseTheme(get(THEME_COOKIE)),
  };
}

/** The zone times are shown in: UTC when toggled or while the browser's zone is unknown. */
export function displayZone(prefs: Pick<DisplayPrefs, "browserZone" | "mode">): string {
  return prefs.mode === "utc" || !prefs.browserZone ? UTC : prefs.browserZone;
}

/** One cookie's value from a document.cookie string. */
export function cookieValue(cookieHeader: string, name: string): string | undefined {
  for (const part of cookieHeader.split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === name) return decodeURIComponent(part.slice(eq + 1).trim());
  }
  return undefined;
}

/** A Set-Cookie string for document.cookie (one year, whole site, not sent cross-site). */
export function prefCookie(name: string, value: string): string {
  return `${name}=${encodeURIComponent(value)}; Path=/; Max-Age=${PREF_COOKIE_MAX_AGE}; SameSite=Lax`;
}

/**
 * The inline script in <head> (before first paint): resolves "system" against the OS setting, sets
 * data-theme on <html> (the stylesheet keys dark colours off it), follows OS changes, and records
 * the browser's zone. Kept tiny and dependency-free; it runs with the page's CSP nonce.
 */
export const HEAD_SCRIPT = `(function(){try{var d=document.documentElement,c=document.cookie,m=/(?:^|;\\s*)${THEME_COOKIE}=(light|dark)/.exec(c),q=window.matchMedia("(prefers-color-scheme: dark)");function a(){var t=d.getAttribute("data-theme-pref")||"system";d.setAttribute("data-theme",t==="system"?(q.matches?"dark":"light"):t);}d.setAttribute("data-theme-pref",m?m[1]:"system");a();q.addEventListener("change",a);var z=Intl.DateTimeFormat().resolvedOptions().timeZone,o=/(?:^|;\\s*)${TZ_COOKIE}=([^;]*)/.exec(c);if(z&&(!o||decodeURIComponent(o[1])!==z))document.cookie="${TZ_COOKIE}="+encodeURIComponent(z)+"; Path=/; Max-Age=${PREF_COOKIE_MAX_AGE}; SameSite=Lax";}catch(e){}})();`;

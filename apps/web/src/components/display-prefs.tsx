"use client";
import { useRouter } from "next/navigation";
import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
  type ReactNode,
  type RefObject,
} from "react";
import {
  cookieValue,
  displayZone,
  prefCookie,
  readDisplayPrefs,
  THEME_COOKIE,
  TIME_MODE_COOKIE,
  type DisplayPrefs,
  type Theme,
  type TimeMode,
} from "@/lib/display-prefs.js";
import { formatAgo, formatDateTime, zoneName } from "@/lib/format.js";

interface DisplayPrefsValue extends DisplayPrefs {
  zone: string;
  setMode: (mode: TimeMode) => void;
  setTheme: (theme: Theme) => void;
}

const Context = createContext<DisplayPrefsValue | null>(null);
const RefreshOptOut = createContext<RefObject<boolean> | null>(null);

function browserZone(): string | null {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || null;
  } catch {
    return null;
  }
}

/**
 * The viewer's time zone, UTC toggle and theme for client components. Starts from what the server
 * read from the cookies (so the first render matches the HTML); after hydration it takes the
 * browser's own values, which matter where the HTML was rendered without the viewer's cookies
 * (the shared status-page cache) or before the browser's zone was known (first visit).
 */
export function DisplayPrefsProvider({ initial, children }: { initial: DisplayPrefs; children: ReactNode }) {
  const router = useRouter();
  const [prefs, setPrefs] = useState<DisplayPrefs>(initial);
  const noRefresh = useRef(false);

  useEffect(() => {
    const fromCookies = readDisplayPrefs((name) => cookieValue(document.cookie, name));
    const next = { ...fromCookies, browserZone: browserZone() ?? fromCookies.browserZone };
    setPrefs(next);
    // Server components rendered in another zone (first visit, or the device moved): render again,
    // unless the page formats its times on the client (cached status pages: a refresh per visitor
    // would bypass the page cache).
    if (displayZone(next) !== displayZone(initial) && !noRefresh.current) router.refresh();
    // Only on mount: later changes go through the setters below.
  }, []);

  const setMode = useCallback(
    (mode: TimeMode) => {
      document.cookie = prefCookie(TIME_MODE_COOKIE, mode);
      setPrefs((p) => ({ ...p, mode }));
      router.refresh();
    },
    [router],
  );
  const setTheme = useCallback((theme: Theme) => {
    document.cookie = prefCookie(THEME_COOKIE, theme);
    const root = document.documentElement;
    root.setAttribute("data-theme-pref", theme);
    const dark = theme === "dark" || (theme === "system" && window.matchMedia("(prefers-color-scheme: dark)").matches);
    root.setAttribute("data-theme", dark ? "dark" : "light");
    setPrefs((p) => ({ ...p, theme }));
  }, []);

  const value = useMemo(() => ({ ...prefs, zone: displayZone(prefs), setMode, setTheme }), [prefs, setMode, setTheme]);
  return (
    <RefreshOptOut.Provider value={noRefresh}>
      <Context.Provider value={value}>{children}</Context.Provider>
    </RefreshOptOut.Provider>
  );
}

/**
 * Rendered by layouts whose times are all client-formatted (LocalTime, ChartTime): the provider
 * then skips its one-off server refresh when it learns the browser's zone. Child effects run
 * before the provider's own, so the flag is set in time.
 */
export function ClientFormattedTimes() {
  const ref = useContext(RefreshOptOut);
  useEffect(() => {
    if (ref) ref.current = true;
  }, [ref]);
  return null;
}

export function useDisplayPrefs(): DisplayPrefsValue {
  const value = useContext(Context);
  if (!value) throw new Error("useDisplayPrefs outside DisplayPrefsProvider");
  return value;
}

/** The zone client components show times in (charts use it for their axes). */
export function useDisplayZone(): string {
  return useDisplayPrefs().zone;
}

/**
 * An instant as text in the viewer's zone, for HTML that cannot depend on the viewer's cookies
 * (cached public pages). With `now`, "3 min ago" with the full time as its title.
 */
export function LocalTime({ at, now, seconds }: { at: string; now?: string; seconds?: boolean }) {
  const zone = useDisplayZone();
  const full = formatDateTime(at, zone, { seconds });
  return (
    <time dateTime={at} title={now ? full : undefined}>
      {now ? formatAgo(at, now) : full}
    </time>
  );
}

/** Theme (system/light/dark) and the UTC toggle; in every header. */
export function DisplayControls() {
  const { theme, mode, browserZone: zone, setMode, setTheme } = useDisplayPrefs();
  const localName = zone ? zoneName(new Date(), zone) : "local";
  return (
    <div className="display-controls">
      <label className="sr-only" htmlFor="theme-select">
        Colour theme
      </label>
      <select
        id="theme-select"
        className="small"
        value={theme}
        onChange={(e) => setTheme(e.target.value as Theme)}
        data-testid="theme-select"
      >
        <option value="system">Theme: system</option>
        <option value="light">Theme: light</option>
        <option value="dark">Theme: dark</option>
      </select>
      <button
        type="button"
        className="small ghost"
        aria-pressed={mode === "utc"}
        onClick={() => setMode(mode === "utc" ? "local" : "utc")}
        title={mode === "utc" ? `Show times in your zone (${zone ?? "unknown"})` : "Show times in UTC"}
        data-testid="utc-toggle"
      >
        {mode === "utc" ? "Times: UTC" : `Times: ${localName}`}
      </button>
    </div>
  );
}

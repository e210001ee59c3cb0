import "server-only";
import { cookies } from "next/headers";
import { displayZone, readDisplayPrefs, type DisplayPrefs } from "@/lib/display-prefs.js";

/** The viewer's display preferences from the request's cookies (see lib/display-prefs.ts). */
export async function getDisplayPrefs(): Promise<DisplayPrefs> {
  const jar = await cookies();
  return readDisplayPrefs((name) => jar.get(name)?.value);
}

/** The zone server components format times in. */
export async function getDisplayZone(): Promise<string> {
  return displayZone(await getDisplayPrefs());
}

import { readFileSync } from "node:fs";
import type { z } from "zod";

/** Suffix naming a file that holds a variable's value (Docker/Kubernetes secrets): X_FILE=/run/secrets/x. */
export const FILE_SUFFIX = "_FILE";

/**
 * For every variable X of `shape`, X_FILE names a file whose content (trimmed) is X's value.
 * Setting both is refused, as is an unreadable or empty file; variables outside the shape are
 * left alone (a schema that itself declares X_FILE, like the agent's RPCPULSE_TOKEN_FILE, keeps it).
 */
export function resolveFileVariables(
  shape: z.ZodRawShape,
  source: Record<string, string | undefined>,
  readFile: (path: string) => string = (path) => readFileSync(path, "utf8"),
): { values: Record<string, string | undefined>; problems: string[] } {
  const values: Record<string, string | undefined> = { ...source };
  const problems: string[] = [];
  for (const name of Object.keys(shape)) {
    const fileVar = `${name}${FILE_SUFFIX}`;
    const path = source[fileVar];
    if (path === undefined || path === "" || fileVar in shape) continue;
    if (source[name] !== undefined && source[name] !== "") {
      problems.push(`${name}: both ${name} and ${fileVar} are set; set only one`);
      continue;
    }
    try {
      const value = readFile(path).trim();
      if (value === "") problems.push(`${fileVar}: ${path} is empty`);
      else values[name] = value;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? (error instanceof Error ? error.message : "error");
      problems.push(`${fileVar}: cannot read ${path} (${code})`);
    }
  }
  return { values, problems };
}

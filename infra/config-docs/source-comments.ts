/**
 * The JSDoc comment written directly above `NAME:` in an env schema's source, as one line: the
 * description fallback for variables without `.describe()`. Comments are the convention in
 * apps/*\/src/env.ts, so the reference reads the same words a developer reads next to the schema.
 */
import { readFileSync } from "node:fs";

const ENTRY = /\/\*\*((?:[^*]|\*(?!\/))*)\*\/\s*\n\s*([A-Z][A-Z0-9_]*)\s*:/g;

export function readSourceComments(files: string[]): Map<string, string> {
  const comments = new Map<string, string>();
  for (const file of files) {
    const text = readFileSync(file, "utf8");
    for (const match of text.matchAll(ENTRY)) {
      const body = (match[1] ?? "")
        .split("\n")
        .map((line) => line.replace(/^\s*\*\s?/, "").trim())
        .filter(Boolean)
        .join(" ");
      const name = match[2] as string;
      if (body && !comments.has(name)) comments.set(name, body);
    }
  }
  return comments;
}

/**
 * Split a PostgreSQL script into statements at top-level semicolons. Understands
 * '...' strings (with '' escapes), E'...' strings (backslash escapes), "quoted identifiers",
 * $tag$ dollar quotes, -- line comments and nested /* block comments * /.
 * Statements that contain only comments and whitespace are dropped.
 */
export function splitStatements(script: string): string[] {
  const statements: string[] = [];
  let start = 0;
  let i = 0;
  let hasCode = false;
  const n = script.length;

  const push = (end: number): void => {
    const text = script.slice(start, end).trim();
    if (hasCode && text.length > 0) statements.push(text);
    hasCode = false;
  };

  while (i < n) {
    const ch = script[i] as string;
    const next = script[i + 1];
    if (ch === "-" && next === "-") {
      const eol = script.indexOf("\n", i);
      i = eol === -1 ? n : eol + 1;
      continue;
    }
    if (ch === "/" && next === "*") {
      let depth = 1;
      i += 2;
      while (i < n && depth > 0) {
        if (script[i] === "/" && script[i + 1] === "*") {
          depth++;
          i += 2;
        } else if (script[i] === "*" && script[i + 1] === "/") {
          depth--;
          i += 2;
        } else i++;
      }
      continue;
    }
    if (ch === ";") {
      push(i);
      i++;
      start = i;
      continue;
    }
    if (!/\s/.test(ch)) hasCode = true;
    if (ch === "'") {
      const prev = script[i - 1];
      const escapes = (prev === "E" || prev === "e") && !/[A-Za-z0-9_]/.test(script[i - 2] ?? " ");
      i = skipQuoted(script, i, "'", escapes);
      continue;
    }
    if (ch === '"') {
      i = skipQuoted(script, i, '"', false);
      continue;
    }
    if (ch === "$") {
      const tag = /^\$([A-Za-z_][A-Za-z0-9_]*)?\$/.exec(script.slice(i, i + 64));
      const prev = script[i - 1] ?? " ";
      if (tag && !/[A-Za-z0-9_]/.test(prev)) {
        const close = script.indexOf(tag[0], i + tag[0].length);
        if (close === -1) throw new Error(`unterminated dollar-quoted string ${tag[0]} at offset ${i}`);
        i = close + tag[0].length;
        continue;
      }
    }
    i++;
  }
  push(n);
  return statements;
}

function skipQuoted(script: string, open: number, quote: string, backslashEscapes: boolean): number {
  let i = open + 1;
  while (i < script.length) {
    const ch = script[i];
    if (backslashEscapes && ch === "\\") {
      i += 2;
      continue;
    }
    if (ch === quote) {
      if (script[i + 1] === quote) {
        i += 2;
        continue;
      }
      return i + 1;
    }
    i++;
  }
  throw new Error(`unterminated ${quote === "'" ? "string literal" : "quoted identifier"} at offset ${open}`);
}

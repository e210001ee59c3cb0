/**
 * Markdown for incident updates and maintenance notes, rendered safely by construction: every
 * character of the input is HTML-escaped first, and only a small fixed set of tags is produced
 * (p, br, strong, em, code, pre, ul, ol, li, h3, h4, a). Raw HTML in the input therefore shows as
 * text (a <script> tag is inert "&lt;script&gt;"), and links are emitted only for http(s) and
 * mailto targets, with rel="nofollow noopener noreferrer"; anything else (javascript:, data:,
 * vbscript:, relative tricks) stays plain text. No attribute other than href/rel is ever written.
 */

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);
}

/** Only absolute http(s) and mailto URLs become links. */
export function isSafeLinkTarget(raw: string): boolean {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return false;
  }
  return url.protocol === "https:" || url.protocol === "http:" || url.protocol === "mailto:";
}

/** Inline markup on an already-escaped line. */
function renderInline(escaped: string): string {
  const codeSpans: string[] = [];
  let out = escaped.replace(/`([^`]+)`/g, (_m, code: string) => {
    codeSpans.push(`<code>${code}</code>`);
    return `\uE000${codeSpans.length - 1}\uE001`;
  });
  // [text](url): the url was escaped with the rest; unescape for validation, re-escape for output.
  out = out.replace(/\[([^\]]{1,500})\]\(([^)\s]{1,2000})\)/g, (whole, text: string, href: string) => {
    const raw = href
      .replace(/&amp;/g, "&")
      .replace(/&#39;/g, "'")
      .replace(/&quot;/g, '"');
    if (!isSafeLinkTarget(raw)) return text;
    return `<a href="${escapeHtml(raw)}" rel="nofollow noopener noreferrer">${text}</a>`;
  });
  out = out.replace(/\*\*([^*]+)\*\*/g, "<strong>$1</strong>");
  out = out.replace(/(^|[^*\w])\*([^*\s][^*]*)\*/g, "$1<em>$2</em>");
  out = out.replace(/(^|[^_\w])_([^_\s][^_]*)_(?!\w)/g, "$1<em>$2</em>");
  return out.replace(/\uE000(\d+)\uE001/g, (_m, i: string) => codeSpans[Number(i)] ?? "");
}

type Block = { kind: "p" | "ul" | "ol" | "pre" | "h3" | "h4"; lines: string[] };

/** Render markdown (a safe subset) to HTML. Input is capped by the caller's schema. */
export function renderMarkdown(markdown: string): string {
  const lines = markdown.replace(/\r\n?/g, "\n").split("\n");
  const blocks: Block[] = [];
  let current: Block | null = null;
  let fenced = false;
  const flush = () => {
    if (current && current.lines.length > 0) blocks.push(current);
    current = null;
  };
  for (const line of lines) {
    if (line.trim().startsWith("```")) {
      if (fenced) {
        fenced = false;
        flush();
      } else {
        flush();
        fenced = true;
        current = { kind: "pre", lines: [] };
      }
      continue;
    }
    if (fenced) {
      current?.lines.push(line);
      continue;
    }
    const bullet = /^\s*[-*+]\s+(.*)$/.exec(line);
    const numbered = /^\s*\d{1,3}[.)]\s+(.*)$/.exec(line);
    const heading = /^(#{1,6})\s+(.*)$/.exec(line);
    if (line.trim() === "") {
      flush();
    } else if (heading) {
      flush();
      blocks.push({ kind: (heading[1] ?? "").length <= 2 ? "h3" : "h4", lines: [heading[2] ?? ""] });
    } else if (bullet || numbered) {
      const kind = bullet ? "ul" : "ol";
      if (current?.kind !== kind) {
        flush();
        current = { kind, lines: [] };
      }
      current.lines.push((bullet ?? numbered)?.[1] ?? "");
    } else {
      if (current?.kind !== "p") {
        flush();
        current = { kind: "p", lines: [] };
      }
      current.lines.push(line.trim());
    }
  }
  flush();
  return blocks
    .map((b) => {
      switch (b.kind) {
        case "pre":
          return `<pre><code>${escapeHtml(b.lines.join("\n"))}</code></pre>`;
        case "ul":
        case "ol":
          return `<${b.kind}>${b.lines.map((l) => `<li>${renderInline(escapeHtml(l))}</li>`).join("")}</${b.kind}>`;
        case "h3":
        case "h4":
          return `<${b.kind}>${renderInline(escapeHtml(b.lines[0] ?? ""))}</${b.kind}>`;
        case "p":
          return `<p>${b.lines.map((l) => renderInline(escapeHtml(l))).join("<br>")}</p>`;
      }
    })
    .join("\n");
}

/** Plain text of markdown for feeds' summaries and emails (markup removed, nothing rendered). */
export function markdownToText(markdown: string): string {
  return markdown
    .replace(/```/g, "")
    .replace(/\[([^\]]*)\]\(([^)]*)\)/g, "$1 ($2)")
    .replace(/[*_`#]/g, "")
    .trim();
}

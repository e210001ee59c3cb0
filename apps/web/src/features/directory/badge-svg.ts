/**
 * Shields-style flat badges ("label | message"), rendered as a standalone SVG document. Pure and
 * dependency-free so the route handler and tests use the same function.
 */

export interface BadgeSpec {
  label: string;
  message: string;
  /** Message background, a hex colour. */
  color: string;
}

export const BADGE_COLORS = {
  green: "#3c9a3c",
  yellow: "#b58a00",
  orange: "#c05a17",
  red: "#c0392b",
  blue: "#1f6fb2",
  grey: "#6b7280",
} as const;

const LABEL_COLOR = "#4a4f57";
const FONT_SIZE = 11;
const PAD_X = 6;
const HEIGHT = 20;

/** Escapes text for XML element content and attribute values. */
export function escapeXml(text: string): string {
  return text.replace(/[<>&"']/g, (c) =>
    c === "<" ? "&lt;" : c === ">" ? "&gt;" : c === "&" ? "&amp;" : c === '"' ? "&quot;" : "&apos;",
  );
}

/** Approximate advance of one character of 11 px Verdana/DejaVu Sans, in px. */
function charWidth(ch: string): number {
  if (ch === " ") return 3.9;
  if ("il.,:;'|!".includes(ch)) return 3.4;
  if ("fjrt()[]/-".includes(ch)) return 4.8;
  if ("mwMW%".includes(ch)) return 10.5;
  if (/[0-9]/.test(ch)) return 7;
  if (/[A-Z]/.test(ch)) return 7.6;
  return 6.6;
}

export function measureText(text: string): number {
  let w = 0;
  for (const ch of text) w += charWidth(ch);
  return Math.ceil(w);
}

/** Keeps badge text short and printable (control characters dropped, at most 40 characters). */
function clean(text: string): string {
  const printable = [...text].filter((c) => c >= " " && c !== "\u007f").join("");
  return printable.length > 40 ? `${printable.slice(0, 39)}…` : printable;
}

const HEX = /^#[0-9a-fA-F]{3,8}$/;

export function renderBadgeSvg(spec: BadgeSpec): string {
  const label = clean(spec.label);
  const message = clean(spec.message);
  const color = HEX.test(spec.color) ? spec.color : BADGE_COLORS.grey;
  const lw = measureText(label) + PAD_X * 2;
  const mw = measureText(message) + PAD_X * 2;
  const w = lw + mw;
  const title = escapeXml(`${label}: ${message}`);
  const l = escapeXml(label);
  const m = escapeXml(message);
  const text = (x: number, value: string) =>
    `<text x="${x}" y="15" fill="#010101" fill-opacity=".3" aria-hidden="true">${value}</text>` +
    `<text x="${x}" y="14">${value}</text>`;
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${HEIGHT}" role="img" aria-label="${title}">` +
    `<title>${title}</title>` +
    `<linearGradient id="s" x2="0" y2="100%"><stop offset="0" stop-color="#bbb" stop-opacity=".1"/><stop offset="1" stop-opacity=".1"/></linearGradient>` +
    `<clipPath id="r"><rect width="${w}" height="${HEIGHT}" rx="3" fill="#fff"/></clipPath>` +
    `<g clip-path="url(#r)"><rect width="${lw}" height="${HEIGHT}" fill="${LABEL_COLOR}"/>` +
    `<rect x="${lw}" width="${mw}" height="${HEIGHT}" fill="${color}"/>` +
    `<rect width="${w}" height="${HEIGHT}" fill="url(#s)"/></g>` +
    `<g fill="#fff" text-anchor="middle" font-family="Verdana,Geneva,DejaVu Sans,sans-serif" font-size="${FONT_SIZE}">` +
    text(lw / 2, l) +
    text(lw + mw / 2, m) +
    `</g></svg>`
  );
}

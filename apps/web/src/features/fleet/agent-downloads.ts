import { createReadStream, existsSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import { z } from "zod";

/**
 * The agent's downloads (apps/agent/dist after `npm run build -w @rpcpulse/agent`): served at
 * /downloads/<file> and /install.sh. Only the files SHA256SUMS lists are served (the list is the
 * allow-list, so no other path of the server can be named), each with its checksum as ETag.
 */
export const INSTALL_SCRIPT = "install.sh";
export const SUMS_FILE = "SHA256SUMS";
const BASE_URL_PLACEHOLDER = "__RPCPULSE_BASE_URL__";

/** A download's name: one path segment, no dot first (so never "." or ".."), nothing to escape. */
const FileName = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._@+-]{0,127}$/);
const Sha256 = z.string().regex(/^[0-9a-f]{64}$/);

/** Where the downloads are: AGENT_DOWNLOADS_DIR, else apps/agent/dist seen from the repository or apps/web. */
export function resolveDownloadsDir(configured: string | undefined, cwd = process.cwd()): string {
  if (configured) return path.resolve(configured);
  const candidates = [path.join(cwd, "apps/agent/dist"), path.join(cwd, "../agent/dist")];
  return candidates.find((dir) => existsSync(path.join(dir, SUMS_FILE))) ?? candidates[0]!;
}

/** name -> sha256 of every file in SHA256SUMS (plus SHA256SUMS itself, with no checksum). */
export function readChecksums(dir: string): Map<string, string | null> | null {
  let text: string;
  try {
    text = readFileSync(path.join(dir, SUMS_FILE), "utf8");
  } catch {
    return null;
  }
  const sums = new Map<string, string | null>([[SUMS_FILE, null]]);
  for (const line of text.split("\n")) {
    const m = /^([0-9a-f]{64}) {2}(\S+)$/.exec(line.trim());
    if (m && FileName.safeParse(m[2]).success) sums.set(m[2]!, m[1]!);
  }
  return sums;
}

export function contentTypeOf(name: string): string {
  if (name.endsWith(".deb")) return "application/vnd.debian.binary-package";
  if (name.endsWith(".gz")) return "application/gzip";
  if (name.endsWith(".mjs")) return "text/javascript; charset=utf-8";
  if (name === SUMS_FILE || /\.(sh|txt|service)$/.test(name)) return "text/plain; charset=utf-8";
  return "application/octet-stream";
}

const LONG_CACHE = "public, max-age=31536000, immutable";
const SHORT_CACHE = "public, max-age=300, must-revalidate";

function notFound(message: string): Response {
  return new Response(`${message}\n`, {
    status: 404,
    headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" },
  });
}

/**
 * GET /downloads/<file>[?sha256=<hex>]. A name with a version in it, or a request naming the
 * file's checksum (what install.sh sends), is the same bytes forever: cached for a year. The rest
 * (SHA256SUMS, the unversioned bundle) for 5 minutes. A ?sha256= of another build answers 404.
 */
export function serveDownload(input: {
  dir: string;
  file: string;
  url: string;
  ifNoneMatch?: string | null;
}): Response {
  const name = FileName.safeParse(input.file);
  if (!name.success) return notFound("no such download");
  const sums = readChecksums(input.dir);
  if (!sums) return notFound("the agent downloads are not built on this server (npm run build -w @rpcpulse/agent)");
  if (!sums.has(name.data)) return notFound(`no such download: ${name.data} (see ${SUMS_FILE})`);
  const sha = sums.get(name.data) ?? null;
  const asked = new URL(input.url).searchParams.get("sha256");
  if (asked !== null && (!Sha256.safeParse(asked).success || (sha !== null && asked !== sha)))
    return notFound(`${name.data} of that build is gone: fetch ${SUMS_FILE} again`);
  const file = path.join(input.dir, name.data);
  let size: number;
  try {
    size = statSync(file).size;
  } catch {
    return notFound(`${name.data} is listed but missing: rebuild the agent downloads`);
  }
  const immutable = sha !== null && (asked === sha || /\d+\.\d+\.\d+/.test(name.data));
  const headers: Record<string, string> = {
    "content-type": contentTypeOf(name.data),
    "cache-control": immutable ? LONG_CACHE : SHORT_CACHE,
    "x-content-type-options": "nosniff",
    "content-disposition": `${name.data.endsWith(".txt") || name.data === SUMS_FILE ? "inline" : "attachment"}; filename="${name.data}"`,
  };
  if (sha) headers.etag = `"${sha}"`;
  if (sha && input.ifNoneMatch === `"${sha}"`) return new Response(null, { status: 304, headers });
  headers["content-length"] = String(size);
  const body = Readable.toWeb(createReadStream(file)) as ReadableStream<Uint8Array>;
  return new Response(body, { status: 200, headers });
}

/** GET /install.sh: the installer with this app's public URL as its download base. */
export function serveInstallScript(input: { dir: string; baseUrl: string }): Response {
  const base = input.baseUrl.replace(/\/+$/, "");
  if (!/^https?:\/\/[^\s'"\\`$]+$/.test(base))
    throw new Error(`APP_BASE_URL ${JSON.stringify(base)} cannot go into a shell script`);
  let text: string;
  try {
    text = readFileSync(path.join(input.dir, INSTALL_SCRIPT), "utf8");
  } catch {
    return notFound("the agent downloads are not built on this server (npm run build -w @rpcpulse/agent)");
  }
  return new Response(text.replace(BASE_URL_PLACEHOLDER, base), {
    status: 200,
    headers: {
      "content-type": "text/plain; charset=utf-8",
      "cache-control": SHORT_CACHE,
      "x-content-type-options": "nosniff",
    },
  });
}

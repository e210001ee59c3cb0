import type { IncomingMessage } from "node:http";
import { BlockList, isIP } from "node:net";

/**
 * The client address of a request, for per-address limits. The socket's peer is the client unless
 * it is one of TRUSTED_PROXIES: then X-Forwarded-For is read right to left and the first hop that
 * is not a trusted proxy is the client (hops further left were written by the client itself and
 * prove nothing). Without trusted proxies the header is ignored: anyone can send it.
 *
 * The key of an IPv6 client is its /64: one host usually holds a whole /64 and could otherwise
 * take a fresh address for every request.
 */
export type ClientAddressOf = (req: IncomingMessage) => string;

/** "::ffff:192.0.2.1" → "192.0.2.1"; anything else unchanged (trimmed). */
export function normaliseAddress(address: string): string {
  const a = address.trim();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(a);
  return mapped ? (mapped[1] as string) : a;
}

/** The eight 16-bit groups of an IPv6 address (no zone), or null. */
function ipv6Groups(address: string): number[] | null {
  const [head = "", tail, extra] = address.split("::");
  if (extra !== undefined) return null;
  const parse = (part: string) => (part === "" ? [] : part.split(":"));
  let left = parse(head);
  let right = tail === undefined ? [] : parse(tail);
  // An embedded IPv4 tail ("::ffff:1.2.3.4", "64:ff9b::1.2.3.4") is two groups.
  const last = (tail === undefined ? left : right).at(-1);
  if (last?.includes(".")) {
    const octets = last.split(".").map(Number);
    const groups = [((octets[0] ?? 0) << 8) | (octets[1] ?? 0), ((octets[2] ?? 0) << 8) | (octets[3] ?? 0)];
    const hex = groups.map((g) => g.toString(16));
    if (tail === undefined) left = [...left.slice(0, -1), ...hex];
    else right = [...right.slice(0, -1), ...hex];
  }
  const missing = 8 - left.length - right.length;
  if (tail === undefined ? missing !== 0 : missing < 1) return null;
  const all = [...left, ...Array<string>(tail === undefined ? 0 : missing).fill("0"), ...right];
  const numbers = all.map((g) => Number.parseInt(g, 16));
  return numbers.every((n) => Number.isInteger(n) && n >= 0 && n <= 0xffff) ? numbers : null;
}

/** The limit key of an address: the address for IPv4, the /64 for IPv6. */
export function addressKey(address: string): string {
  const a = normaliseAddress(address);
  if (isIP(a) !== 6) return a;
  const groups = ipv6Groups(a.split("%")[0] as string);
  return groups
    ? `${groups
        .slice(0, 4)
        .map((g) => g.toString(16))
        .join(":")}::/64`
    : a;
}

/** TRUSTED_PROXIES entries (addresses or CIDRs) as a BlockList; throws on an invalid entry. */
export function parseTrustedProxies(entries: string[]): BlockList {
  const list = new BlockList();
  for (const entry of entries) {
    const [address = "", bits] = entry.split("/");
    const family = isIP(address);
    if (family === 0) throw new Error(`TRUSTED_PROXIES: "${entry}" is not an IP address or CIDR`);
    const type = family === 4 ? "ipv4" : "ipv6";
    if (bits === undefined) list.addAddress(address, type);
    else {
      const prefix = Number(bits);
      if (!Number.isInteger(prefix) || prefix < 0 || prefix > (family === 4 ? 32 : 128)) {
        throw new Error(`TRUSTED_PROXIES: "${entry}" has an invalid prefix length`);
      }
      list.addSubnet(address, prefix, type);
    }
  }
  return list;
}

function isTrusted(list: BlockList, address: string): boolean {
  const family = isIP(address);
  return family !== 0 && list.check(address, family === 4 ? "ipv4" : "ipv6");
}

export function createClientAddressResolver(trustedProxies: string[]): ClientAddressOf {
  const trusted = trustedProxies.length > 0 ? parseTrustedProxies(trustedProxies) : null;
  return (req) => {
    const peer = normaliseAddress(req.socket.remoteAddress ?? "unknown");
    if (!trusted || !isTrusted(trusted, peer)) return addressKey(peer);
    const header = req.headers["x-forwarded-for"];
    const hops = (Array.isArray(header) ? header.join(",") : (header ?? ""))
      .split(",")
      .map((h) => normaliseAddress(h))
      .filter(Boolean);
    for (let i = hops.length - 1; i >= 0; i--) {
      const hop = hops[i] as string;
      if (isIP(hop) === 0) return addressKey(peer); // not an address: the proxy's own key
      if (!isTrusted(trusted, hop)) return addressKey(hop);
    }
    // Every hop is a trusted proxy: the left-most one is as close to the client as we can tell.
    return addressKey(hops[0] ?? peer);
  };
}

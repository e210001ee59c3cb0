import { embeddedIPv4, formatIPv6, matchesPrefix, parseIPv4, parseIPv6 } from "./ip-address.js";

/**
 * Classes of addresses a prober must not reach. `allowPrivate` (self-hosted deployments, demo and
 * tests on loopback) unlocks only the classes marked `private` below; unspecified, multicast,
 * broadcast, reserved, documentation and cloud-metadata addresses stay blocked in every mode.
 */
export type AddressClass =
  | "public"
  | "loopback"
  | "private"
  | "link_local"
  | "cgnat"
  | "unspecified"
  | "multicast"
  | "broadcast"
  | "reserved"
  | "documentation"
  | "benchmarking"
  | "metadata"
  | "tunnel"
  | "invalid";

/** Classes `allowPrivate: true` lets through. */
const PRIVATE_CLASSES: ReadonlySet<AddressClass> = new Set(["loopback", "private", "link_local", "cgnat"]);

interface V4Range {
  base: number;
  bits: number;
  cls: AddressClass;
}

function v4(cidr: string, cls: AddressClass): V4Range {
  const [addr = "", bits = "32"] = cidr.split("/");
  const base = parseIPv4(addr);
  if (base === null) throw new Error(`bad CIDR ${cidr}`);
  return { base, bits: Number(bits), cls };
}

/** Checked in order: the first match wins, so the narrow metadata entries come first. */
const V4_RANGES: readonly V4Range[] = [
  v4("169.254.169.254/32", "metadata"), // AWS, GCP, Azure, OpenStack, DigitalOcean
  v4("169.254.170.2/32", "metadata"), // AWS ECS task metadata
  v4("100.100.100.200/32", "metadata"), // Alibaba Cloud
  v4("192.0.0.192/32", "metadata"), // Oracle Cloud
  v4("255.255.255.255/32", "broadcast"),
  v4("0.0.0.0/8", "unspecified"),
  v4("10.0.0.0/8", "private"),
  v4("100.64.0.0/10", "cgnat"),
  v4("127.0.0.0/8", "loopback"),
  v4("169.254.0.0/16", "link_local"),
  v4("172.16.0.0/12", "private"),
  v4("192.0.0.0/24", "reserved"), // IETF protocol assignments
  v4("192.0.2.0/24", "documentation"), // TEST-NET-1
  v4("192.88.99.0/24", "reserved"), // 6to4 relay anycast (deprecated)
  v4("192.168.0.0/16", "private"),
  v4("198.18.0.0/15", "benchmarking"),
  v4("198.51.100.0/24", "documentation"), // TEST-NET-2
  v4("203.0.113.0/24", "documentation"), // TEST-NET-3
  v4("224.0.0.0/4", "multicast"),
  v4("240.0.0.0/4", "reserved"),
];

export function classifyIPv4(value: number): AddressClass {
  for (const r of V4_RANGES) {
    const mask = r.bits === 0 ? 0 : (0xffffffff << (32 - r.bits)) >>> 0;
    if ((value & mask) >>> 0 === (r.base & mask) >>> 0) return r.cls;
  }
  return "public";
}

interface V6Range {
  prefix: Uint8Array;
  bits: number;
  cls: AddressClass | "embedded";
  /** Byte offset of an embedded IPv4 address that decides the class. */
  v4Offset?: number;
  /** Class when the embedded IPv4 is public. */
  publicInner?: "public" | "tunnel";
}

function v6(cidr: string, cls: V6Range["cls"], embed?: { offset: number; publicInner: "public" | "tunnel" }): V6Range {
  const [addr = "", bits = "128"] = cidr.split("/");
  const prefix = parseIPv6(addr);
  if (!prefix) throw new Error(`bad CIDR ${cidr}`);
  const range: V6Range = { prefix, bits: Number(bits), cls };
  if (embed) {
    range.v4Offset = embed.offset;
    range.publicInner = embed.publicInner;
  }
  return range;
}

const V6_RANGES: readonly V6Range[] = [
  v6("fd00:ec2::254/128", "metadata"), // AWS IMDS over IPv6
  v6("::/128", "unspecified"),
  v6("::1/128", "loopback"),
  v6("::ffff:0:0/96", "embedded", { offset: 12, publicInner: "public" }), // IPv4-mapped: judged by the IPv4 inside
  v6("::ffff:0:0:0/96", "embedded", { offset: 12, publicInner: "tunnel" }), // SIIT IPv4-translated
  v6("::/96", "tunnel"), // deprecated IPv4-compatible: never a real target
  v6("64:ff9b::/96", "embedded", { offset: 12, publicInner: "public" }), // NAT64 well-known prefix (IPv6-only hosts)
  v6("64:ff9b:1::/48", "private"), // local-use NAT64
  v6("100::/64", "reserved"), // discard-only
  v6("2001:db8::/32", "documentation"),
  v6("2001::/32", "tunnel"), // Teredo: the client address inside is obfuscated, refuse outright
  v6("2001::/23", "reserved"), // IETF protocol assignments (benchmarking, ORCHID, ...)
  v6("2002::/16", "embedded", { offset: 2, publicInner: "tunnel" }), // 6to4 (deprecated): never followed
  v6("3fff::/20", "documentation"),
  v6("fc00::/7", "private"), // unique local
  v6("fe80::/10", "link_local"),
  v6("fec0::/10", "reserved"), // deprecated site-local
  v6("ff00::/8", "multicast"),
];

const GLOBAL_UNICAST = v6("2000::/3", "public");

export function classifyIPv6(bytes: Uint8Array): AddressClass {
  for (const r of V6_RANGES) {
    if (!matchesPrefix(bytes, r.prefix, r.bits)) continue;
    if (r.cls !== "embedded") return r.cls;
    const inner = classifyIPv4(embeddedIPv4(bytes, r.v4Offset ?? 12));
    return inner === "public" ? (r.publicInner ?? "tunnel") : inner;
  }
  return matchesPrefix(bytes, GLOBAL_UNICAST.prefix, GLOBAL_UNICAST.bits) ? "public" : "reserved";
}

/** Classifies an IP literal (v4 dotted quad or v6, with or without brackets). */
export function classifyAddress(address: string): AddressClass {
  const text = address.startsWith("[") && address.endsWith("]") ? address.slice(1, -1) : address;
  const a4 = parseIPv4(text);
  if (a4 !== null) return classifyIPv4(a4);
  const a6 = parseIPv6(text);
  if (a6) return classifyIPv6(a6);
  return "invalid";
}

export interface AddressVerdict {
  allowed: boolean;
  cls: AddressClass;
}

/** What a client may reach: public addresses, plus private classes or exact exceptions when configured. */
export interface AddressPolicy {
  allowPrivate: boolean;
  /** Exact IPs allowed whatever their class (a self-hosted node, a test server). Never cloud metadata. */
  allowAddresses?: readonly string[];
}

function canonical(address: string): string {
  const text = address.startsWith("[") && address.endsWith("]") ? address.slice(1, -1) : address;
  const a6 = parseIPv6(text);
  return a6 ? formatIPv6(a6) : text;
}

export function checkAddress(address: string, policy: AddressPolicy): AddressVerdict {
  const cls = classifyAddress(address);
  if (cls === "public") return { allowed: true, cls };
  if (cls === "metadata" || cls === "invalid") return { allowed: false, cls };
  if (policy.allowPrivate && PRIVATE_CLASSES.has(cls)) return { allowed: true, cls };
  const exempt = policy.allowAddresses?.some((a) => canonical(a) === canonical(address)) ?? false;
  return { allowed: exempt, cls };
}

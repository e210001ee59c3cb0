// ipBytes (remote IPs into binary COPY): the one-pass IPv4 parser accepts and decodes exactly what
// the previous split-and-regex parser did (kept here as the reference), on valid addresses, near
// misses and random strings over the characters that matter, IPv4 alone and inside IPv6.
import assert from "node:assert/strict";
import { test } from "node:test";
import { ipBytes } from "../src/sql/copy-binary.js";

function referenceIpv4Parts(ip: string): number[] | undefined {
  const parts = ip.split(".");
  if (parts.length !== 4) return undefined;
  const out: number[] = [];
  for (const p of parts) {
    if (!/^\d{1,3}$/.test(p)) return undefined;
    const n = Number(p);
    if (n > 255) return undefined;
    out.push(n);
  }
  return out;
}

const outcome = (f: () => Buffer) => {
  try {
    return f().toString("hex");
  } catch (error) {
    return `throws ${(error as Error).message}`;
  }
};

test("IPv4 parsing decides and decodes as the previous parser did", () => {
  const fixed = [
    "0.0.0.0",
    "10.0.0.1",
    "255.255.255.255",
    "256.0.0.1",
    "010.001.0.1",
    "0001.0.0.1",
    "1.2.3",
    "1.2.3.4.",
    ".1.2.3.4",
    "1..2.3",
    "1.2.3.4.5",
    "",
    " 1.2.3.4",
    "1.2.3.4 ",
    "+1.2.3.4",
    "1e1.1.1.1",
    "١.2.3.4",
    "::ffff:10.0.0.1",
    "::ffff:300.0.0.1",
    "2001:db8::1.2.3",
  ];
  let seed = 42;
  const rand = () => ((seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32) as number;
  const alphabet = "0123456789.....:a ";
  const random = Array.from({ length: 20_000 }, () =>
    Array.from({ length: Math.floor(rand() * 16) }, () => alphabet[Math.floor(rand() * alphabet.length)]).join(""),
  );
  const valid = Array.from({ length: 2_000 }, () =>
    Array.from({ length: 4 }, () => String(Math.floor(rand() * 300))).join("."),
  );
  let accepted = 0;
  for (const ip of [...fixed, ...random, ...valid]) {
    const ours = outcome(() => ipBytes(ip));
    if (!ip.includes(":")) {
      const parts = referenceIpv4Parts(ip);
      assert.equal(ours, parts ? Buffer.from(parts).toString("hex") : "throws not an IP address", JSON.stringify(ip));
      if (parts) accepted++;
    }
  }
  assert.ok(accepted > 500, `only ${accepted} accepted`);
  assert.equal(
    outcome(() => ipBytes("::ffff:10.0.0.1")),
    "00000000000000000000ffff0a000001",
  );
  assert.match(
    outcome(() => ipBytes("::ffff:300.0.0.1")),
    /^throws/,
  );
});

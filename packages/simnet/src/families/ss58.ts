import { createHash } from "node:crypto";
import { encodeBase58 } from "./hive-assets.js";

/** SS58 network prefixes of the simulated relay chains (https://github.com/paritytech/ss58-registry). */
export const SS58_PREFIX: Record<string, number> = { polkadot: 0, kusama: 2 };

/** SS58 address of a 32-byte public key (single-byte network prefixes). */
export function encodeSs58(publicKey: Buffer, prefix: number): string {
  const body = Buffer.concat([Buffer.from([prefix]), publicKey]);
  const checksum = createHash("blake2b512")
    .update(Buffer.concat([Buffer.from("SS58PRE"), body]))
    .digest()
    .subarray(0, 2);
  return encodeBase58(Buffer.concat([body, checksum]));
}

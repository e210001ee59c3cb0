import { promises as dns, type LookupAddress } from "node:dns";
import { isIP } from "node:net";
import { ProbeError, toProbeError } from "./errors.js";
import { checkAddress, type AddressPolicy } from "./ip-policy.js";

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Answers every A/AAAA record for a name. Injectable so tests can script DNS (rebinding, wildcard names). */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

export const systemResolver: Resolver = async (hostname) => {
  const answers = await dns.lookup(hostname, { all: true, verbatim: true });
  return answers.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
};

/** Node's `lookup` option signature, in both of its modes (`all: true` for happy eyeballs). */
export type LookupFunction = (
  hostname: string,
  options: { family?: number | string; all?: boolean; hints?: number },
  callback: (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void,
) => void;

export interface SafeLookupHooks {
  /** Called once with the hrtime (ns) when resolution finished, whatever the outcome. */
  onResolved?: (atNs: bigint, addresses: ResolvedAddress[]) => void;
}

/**
 * Refuses a name's DNS answers when there are none, one is not an address, or ANY is in a blocked
 * class (throws ProbeError "dns" / "ssrf_blocked"). The one address policy of connections and of
 * resolveTarget.
 */
export function vetResolvedAddresses(
  hostname: string,
  answers: readonly ResolvedAddress[],
  policy: AddressPolicy,
): void {
  if (answers.length === 0) throw new ProbeError("dns", `no address for ${hostname}`);
  for (const a of answers) {
    if (isIP(a.address) === 0)
      throw new ProbeError("dns", `resolver returned a non-address ${JSON.stringify(a.address)}`);
    const verdict = checkAddress(a.address, policy);
    if (!verdict.allowed) throw new ProbeError("ssrf_blocked", `${hostname} resolves to ${a.address} (${verdict.cls})`);
  }
}

/**
 * A `lookup` for net/tls/http/ws that resolves once, refuses the connection when ANY answer is in a
 * blocked class, and hands exactly the checked addresses to the socket. The address connected to is
 * therefore the address checked: there is no second resolution a rebinding DNS server could answer
 * differently.
 */
export function createSafeLookup(
  resolver: Resolver,
  policy: AddressPolicy,
  hooks: SafeLookupHooks = {},
): LookupFunction {
  return (hostname, options, callback) => {
    const wantAll = options.all === true;
    const family =
      options.family === 6 || options.family === "IPv6" ? 6 : options.family === 4 || options.family === "IPv4" ? 4 : 0;
    let reported = false;
    const report = (answers: ResolvedAddress[]): void => {
      if (reported) return;
      reported = true;
      hooks.onResolved?.(process.hrtime.bigint(), answers);
    };
    resolver(hostname)
      .then((answers) => {
        report(answers);
        vetResolvedAddresses(hostname, answers, policy);
        const usable = family === 0 ? answers : answers.filter((a) => a.family === family);
        const first = usable[0];
        if (!first) throw new ProbeError("dns", `no IPv${family} address for ${hostname}`);
        if (wantAll)
          callback(
            null,
            usable.map((a) => ({ address: a.address, family: a.family })),
          );
        else callback(null, first.address, first.family);
      })
      .catch((err: unknown) => {
        report([]);
        const pe = toProbeError(err);
        callback(Object.assign(pe, { code: pe.reason === "dns" ? "ENOTFOUND" : "ESSRFBLOCKED" }), wantAll ? [] : "", 0);
      });
  };
}

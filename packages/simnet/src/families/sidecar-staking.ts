import type { ChainNetwork } from "../network.js";
import { validatorBookOf } from "./substrate-validators.js";
import type { RestResponse } from "./types.js";

/**
 * substrate-api-sidecar's staking routes over the network's ValidatorBook, same field names and
 * string-encoded numbers as sidecar v20 (https://paritytech.github.io/substrate-api-sidecar/dist/ and
 * the response types of @substrate/api-sidecar, src/types/responses):
 *   GET /pallets/staking/progress                       IPalletStakingProgress (activeEra, validatorSet, ...)
 *   GET /pallets/staking/validators                     IPalletStakingValidator ({address, status}[])
 *   GET /pallets/{pallet}/storage/{item}?keys[]=...     IPalletStorageItem: staking activeEra,
 *                                                       erasRewardPoints, validators; session nextKeys;
 *                                                       timestamp now
 *   GET /accounts/{id}/staking-payouts?depth&era&unclaimedOnly   IAccountStakingPayouts
 * Reads are made at the finalized head, like sidecar without `at`.
 */

const PALLET_INDEX: Record<string, string> = { timestamp: "2", staking: "7", session: "9" };

function notFound(path: string): RestResponse {
  return { status: 404, body: { code: 404, message: `Cannot GET ${path}` } };
}

function badRequest(message: string): RestResponse {
  return { status: 400, body: { code: 400, message, level: "error" } };
}

export interface StakingRouteContext {
  network: ChainNetwork;
  /** The finalized head the read is made at, and its hash. */
  at: { height: number; hash: string };
}

/** null when the path is not a staking route. */
export function handleStakingRoute(parts: readonly string[], url: URL, ctx: StakingRouteContext): RestResponse | null {
  const book = validatorBookOf(ctx.network);
  const h = ctx.at.height;
  const at = { hash: ctx.at.hash, height: String(h) };
  const era = book.eraOf(h);
  if (parts[0] === "pallets" && parts[1] === "staking" && parts[2] === "progress" && parts.length === 3) {
    const nextEra = book.eraStart(era + 1);
    return {
      status: 200,
      body: {
        at,
        activeEra: String(era),
        forceEra: "NotForcing",
        nextActiveEraEstimate: String(nextEra),
        nextSessionEstimate: String(book.nextSessionStart(h)),
        unappliedSlashes: [],
        electionStatus: { status: { off: null }, toggleEstimate: String(nextEra - 10) },
        idealValidatorCount: String(book.activeSet(h).length),
        validatorSet: book.activeSet(h),
      },
    };
  }
  if (parts[0] === "pallets" && parts[1] === "staking" && parts[2] === "validators" && parts.length === 3) {
    return { status: 200, body: { at, validators: book.validators(h), validatorsToBeChilled: [] } };
  }
  if (parts[0] === "pallets" && parts[2] === "storage" && parts.length === 4) {
    const pallet = parts[1] ?? "";
    const item = parts[3] ?? "";
    const keys = url.searchParams.getAll("keys[]");
    const value = storageValue(pallet, item, keys, ctx);
    if (value === undefined) return notFound(url.pathname);
    if (value instanceof Error) return badRequest(value.message);
    return {
      status: 200,
      body: { at, pallet, palletIndex: PALLET_INDEX[pallet] ?? "0", storageItem: item, keys, value },
    };
  }
  if (parts[0] === "accounts" && parts[2] === "staking-payouts" && parts.length === 3) {
    const address = decodeURIComponent(parts[1] ?? "");
    if (!book.has(address)) return badRequest(`The address ${address} is not a stash address.`);
    const depth = Number(url.searchParams.get("depth") ?? "1");
    const queryEra = Number(url.searchParams.get("era") ?? String(era - 1));
    const unclaimedOnly = url.searchParams.get("unclaimedOnly") !== "false";
    if (!Number.isInteger(depth) || depth < 1 || depth > 84) return badRequest("Must specify a depth under 84.");
    if (!Number.isInteger(queryEra) || queryEra > era - 1) {
      return badRequest(
        `The specified era (${queryEra}) is too large. Largest era payout info is available for is ${era - 1}`,
      );
    }
    const erasPayouts: Array<Record<string, unknown>> = [];
    for (let e = Math.max(0, queryEra - depth + 1); e <= queryEra; e += 1) {
      const points = book.eraPoints(e, book.eraStart(e + 1));
      const own = book.payout(address, e, era);
      const payouts =
        own && (!unclaimedOnly || !own.claimed)
          ? [
              {
                validatorId: address,
                nominatorStakingPayout: String(own.planck),
                claimed: own.claimed,
                totalValidatorRewardPoints: String(own.points),
                validatorCommission: String(book.commissionPpb(address)),
                totalValidatorExposure: "2500000000000000",
                nominatorExposure: "0",
              },
            ]
          : [];
      erasPayouts.push({
        era: String(e),
        totalEraRewardPoints: String(points.total),
        totalEraPayout: String(BigInt(points.total) * 12_500_000n),
        payouts,
      });
    }
    return { status: 200, body: { at, erasPayouts } };
  }
  return null;
}

function storageValue(pallet: string, item: string, keys: string[], ctx: StakingRouteContext): unknown {
  const book = validatorBookOf(ctx.network);
  const h = ctx.at.height;
  if (pallet === "timestamp" && item === "now") return String(ctx.network.timeOfHeight(h));
  if (pallet === "staking" && item === "activeEra") {
    const era = book.eraOf(h);
    return { index: String(era), start: String(ctx.network.timeOfHeight(book.eraStart(era))) };
  }
  if (pallet === "staking" && item === "erasRewardPoints") {
    const era = Number(keys[0]);
    if (!Number.isInteger(era) || era < 0) return new Error(`keys[] must name an era, got ${keys[0] ?? "nothing"}`);
    if (era > book.eraOf(h)) return { total: "0", individual: {} };
    const points = book.eraPoints(era, h);
    return {
      total: String(points.total),
      individual: Object.fromEntries([...points.individual].map(([a, p]) => [a, String(p)])),
    };
  }
  if (pallet === "staking" && item === "validators") {
    const address = keys[0] ?? "";
    // A ValueQuery: an account without preferences answers the default (0 commission, not blocked).
    const prefs = book.status(address, h) !== null;
    return { commission: prefs ? String(book.commissionPpb(address)) : "0", blocked: false };
  }
  if (pallet === "session" && item === "nextKeys") {
    const address = keys[0] ?? "";
    return book.has(address) ? book.nextKeys(address) : null;
  }
  return undefined;
}

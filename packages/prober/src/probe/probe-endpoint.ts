import { toProbeError } from "../ssrf/errors.js";
import type { SafeHttpClient } from "../ssrf/http-client.js";
import { FAMILY_ADAPTERS } from "./families/index.js";
import { createFamilyContext } from "./families/types.js";
import { CallError } from "./rpc.js";
import type { ProbeResult, ProbeTarget } from "./types.js";

export interface ProbeOptions {
  /** Also fetch the finalized/irreversible head (an extra request for ethereum, substrate, sidecar). Default true. */
  finality?: boolean;
  /** Wall clock for `startedAt` (tests). */
  now?: () => number;
}

/**
 * One head probe: the family's head call on a fresh connection, timed phase by phase. Never throws:
 * every failure becomes `ok: false` with an errorClass.
 */
export async function probeEndpoint(
  target: ProbeTarget,
  client: SafeHttpClient,
  options: ProbeOptions = {},
): Promise<ProbeResult> {
  const startedAt = (options.now ?? Date.now)();
  const base: ProbeResult = {
    url: target.url,
    family: target.family,
    network: target.network,
    startedAt,
    ok: false,
    httpStatus: null,
    rpcError: null,
    errorClass: null,
    errorMessage: null,
    rateLimited: false,
    responseBytes: 0,
    headBlock: null,
    headTime: null,
    finalizedBlock: null,
    phases: null,
    remoteAddress: null,
  };
  const adapter = FAMILY_ADAPTERS[target.family];
  try {
    const head = await adapter.head(createFamilyContext(target, client), { finality: options.finality ?? true });
    return {
      ...base,
      ok: true,
      httpStatus: head.response.status,
      responseBytes: head.response.wireBytes,
      headBlock: head.headBlock,
      headTime: head.headTime,
      finalizedBlock: head.finalizedBlock,
      phases: head.response.phases,
      remoteAddress: head.response.remoteAddress,
    };
  } catch (err) {
    const pe = toProbeError(err);
    const result: ProbeResult = { ...base, errorClass: pe.reason, errorMessage: pe.message.slice(0, 500) };
    if (err instanceof CallError) {
      result.httpStatus = err.httpStatus;
      result.rpcError = err.rpcError;
      result.rateLimited = err.rateLimited;
      if (err.response) {
        result.responseBytes = err.response.wireBytes;
        result.phases = err.response.phases;
        result.remoteAddress = err.response.remoteAddress;
      }
    }
    return result;
  }
}

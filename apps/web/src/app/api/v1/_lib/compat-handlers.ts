import {
  type ChainlistRpcsResponse,
  CompatQuery,
  type ErpcUpstreamsResponse,
  listChainlistRpcs,
  listErpcUpstreams,
} from "@rpcpulse/services/directory";
import type { DirectoryApiDeps } from "./handlers.js";

/** The directory in the shapes other tools read: query parsed with zod, one service call each. */

const queryOf = (url: URL) => CompatQuery.parse(Object.fromEntries(url.searchParams));

/** GET /api/v1/chainlist/rpcs.json?network=&window= */
export function readChainlistRpcs(deps: DirectoryApiDeps, url: URL): Promise<ChainlistRpcsResponse> {
  return listChainlistRpcs(deps, queryOf(url));
}

/** GET /api/v1/erpc/upstreams.json?network=&window= */
export function readErpcUpstreams(deps: DirectoryApiDeps, url: URL): Promise<ErpcUpstreamsResponse> {
  return listErpcUpstreams(deps, queryOf(url));
}

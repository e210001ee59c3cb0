import type { ApiFamily } from "@rpcpulse/domain";
import { ethereumAdapter } from "./ethereum.js";
import { hiveAdapter } from "./hive.js";
import { sidecarAdapter } from "./sidecar.js";
import { substrateAdapter } from "./substrate.js";
import type { FamilyAdapter } from "./types.js";

export const FAMILY_ADAPTERS: Record<ApiFamily, FamilyAdapter> = {
  hive: hiveAdapter,
  ethereum: ethereumAdapter,
  substrate: substrateAdapter,
  sidecar: sidecarAdapter,
};

export { LOGS_RANGES } from "./ethereum.js";
export { SUBSTRATE_GROUPS, SYSTEM_NUMBER_KEY } from "./substrate.js";
export { SIDECAR_ROUTES } from "./sidecar.js";
export type { FamilyAdapter, FamilyContext, HeadInfo, NewHead } from "./types.js";

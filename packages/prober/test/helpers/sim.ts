import { ManualClock, startSimnet, type Simnet, type SimnetConfigInput } from "@rpcpulse/simnet";

/** 2026-03-01T00:00:00Z: past simnet's anchor, on a 3 s / 6 s / 12 s boundary. */
export const SIM_T0 = Date.UTC(2026, 2, 1);

export async function startSim(nodes: SimnetConfigInput["nodes"], clock?: ManualClock): Promise<Simnet> {
  return startSimnet({ seed: "prober-tests", headPollMs: 20, nodes }, clock ? { clock } : {});
}

export { ManualClock };

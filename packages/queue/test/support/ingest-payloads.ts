// A valid ingest job payload (as the ingest API queues it) with `samples` samples and the optional
// groups asked for; shared by the payload-check corpus and the job encoding tests.
import type { Json } from "@rpcpulse/config/testing";
import { INGEST_BOOLEAN_METRICS, INGEST_NUMERIC_METRICS } from "../../src/queues/ingest.queue.js";

export function basePayload(
  samples: number,
  extras: { settings?: boolean; beacon?: boolean; vantage?: boolean },
): Json {
  const t0 = 1_764_000_000_000;
  const time = Array.from({ length: samples }, (_, i) => t0 + i * 10_000);
  const columns: Record<string, Json> = { time };
  INGEST_NUMERIC_METRICS.forEach(
    (f, k) => (columns[f] = time.map((_, i) => ((i + k) % 5 === 0 ? null : k * 100 + i + 0.5))),
  );
  for (const f of INGEST_BOOLEAN_METRICS) columns[f] = time.map((_, i) => (i % 3 === 0 ? null : i % 2 === 0));
  const sample = time.flatMap((_, i) => [i, i]);
  const payload: Record<string, Json> = {
    organizationId: "org_bench-1",
    nodeId: "0bd260c4-0d00-4000-8000-000000000001",
    networkId: "0bd260c4-0d00-4000-8000-000000000002",
    batchSeq: 42,
    installId: "abcdefghijklmnop-123",
    receivedAtMs: t0 + samples * 10_000,
    clockSkewMs: -120,
    agentVersion: "1.4.0",
    clientVersion: "hived/1.27.5",
    samples: columns,
    remoteIps: { sample, ip: sample.map((i) => (i % 2 ? "10.0.0.1" : "2001:db8::1")), conns: sample.map((i) => i % 4) },
  };
  if (extras.settings)
    payload.settings = {
      tcpTwReuse: 1,
      somaxconn: null,
      ipLocalPortRange: { low: 32_768, high: 60_999, size: 28_232 },
      listeningPorts: [8090, 8091],
      outbound: {
        time: t0,
        top: [{ ip: "127.0.0.1", port: 5432, sockets: 12, established: 10, timeWait: 2 }],
      },
    };
  if (extras.beacon)
    payload.beacon = [
      {
        time: t0,
        ok: true,
        headSlot: 100,
        wallSlot: 101,
        slotsBehind: 1,
        syncDistance: 0,
        syncing: false,
        optimistic: null,
        elOffline: false,
        peers: 50,
        version: "teku/v24",
        execBlock: 900,
        execHash: "0xab",
        elBlock: 900,
        elCheck: "match",
        error: null,
      },
    ];
  if (extras.vantage)
    payload.vantage = {
      region: "eu-west",
      probes: [
        {
          time: t0,
          endpointId: "0bd260c4-0d00-4000-8000-000000000003",
          ok: true,
          httpStatus: 200,
          errorClass: null,
          errorMessage: null,
          rateLimited: false,
          responseBytes: 300,
          headBlock: 1_000,
          headTime: t0 - 1_500,
          finalizedBlock: 980,
          dnsMs: 1,
          connectMs: 2,
          tlsMs: null,
          ttfbMs: 30,
          totalMs: 31.5,
        },
      ],
    };
  return payload;
}

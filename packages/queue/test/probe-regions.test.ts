// Region probe queues: one BullMQ queue per region, hash-tagged as a whole on a Redis Cluster.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Cluster, Redis } from "ioredis";
import { bullQueueName, probeRegionQueueName } from "../src/index.js";

describe("region probe queues", () => {
  it("are named probe.<region>, one hash slot each on a cluster, untagged on a single Redis", async () => {
    const cluster = new Cluster([{ host: "127.0.0.1", port: 1 }], { lazyConnect: true });
    const single = new Redis({ lazyConnect: true });
    try {
      assert.equal(probeRegionQueueName("eu-west"), "probe.eu-west");
      assert.equal(bullQueueName("probe", cluster, "eu-west"), "{probe.eu-west}");
      assert.equal(bullQueueName("probe", cluster), "{probe}");
      assert.equal(bullQueueName("probe", single, "eu-west"), "probe.eu-west");
      assert.throws(() => probeRegionQueueName("EU:west"), /invalid queue instance/);
    } finally {
      cluster.disconnect();
      single.disconnect();
    }
  });
});

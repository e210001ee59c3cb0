// The packed ingest group job (format 2, src/queues/ingest-job-encoding.ts): payloads come back
// exactly (after a JSON round trip, as through Redis), jobs in the first format ({ items }) are
// still read, and a corrupted format-2 job is refused whole with a message naming what is wrong.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { seededRandom } from "@rpcpulse/config/testing";
import { parseGroupPayloads } from "../src/group-jobs.js";
import { parsePayload } from "../src/parse-payload.js";
import { INGEST_GROUP_FORMAT, packIngestGroup, unpackIngestGroup } from "../src/queues/ingest-job-encoding.js";
import { INGEST_NUMERIC_METRICS, type IngestBatchPayload } from "../src/queues/ingest.queue.js";
import { basePayload } from "./support/ingest-payloads.js";

const viaRedis = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

/** Checked payloads of every shape the queue carries (optional groups present and absent, nulls). */
function payloads(): IngestBatchPayload[] {
  const random = seededRandom(13);
  const out: IngestBatchPayload[] = [];
  for (let i = 0; i < 40; i++) {
    const raw = basePayload(1 + Math.floor(random() * 6), {
      settings: random() < 0.5,
      beacon: random() < 0.3,
      vantage: random() < 0.3,
    }) as Record<string, unknown>;
    raw.batchSeq = i;
    if (i % 4 === 0) delete raw.installId;
    if (i % 5 === 0) raw.settings = null;
    if (i % 7 === 0) raw.clientVersion = null;
    out.push(parsePayload("ingest", raw));
  }
  return out;
}

describe("ingest group job encoding (format 2)", () => {
  it("gives back every payload exactly after a trip through JSON", () => {
    const items = payloads();
    const data = viaRedis(packIngestGroup(items));
    assert.equal(data.v, INGEST_GROUP_FORMAT);
    const { payloads: back, invalid } = parseGroupPayloads("ingest", data);
    assert.deepEqual(invalid, []);
    assert.deepEqual(back, viaRedis(items));
    // Absent optional fields stay absent, nulls stay null.
    back.forEach((p, i) => {
      assert.equal("installId" in p, "installId" in items[i]!);
      assert.equal("settings" in p, "settings" in items[i]!);
      assert.equal("beacon" in p, "beacon" in items[i]!);
    });
  });

  it("is smaller than the first format", () => {
    const items = payloads();
    assert.ok(JSON.stringify(packIngestGroup(items)).length < 0.8 * JSON.stringify({ items }).length);
  });

  it("still reads jobs in the first format ({ items }), as an earlier ingest version queued them", () => {
    const items = payloads();
    assert.equal(unpackIngestGroup(viaRedis({ items })), undefined);
    const { payloads: back, invalid } = parseGroupPayloads("ingest", viaRedis({ items }));
    assert.deepEqual(invalid, []);
    assert.deepEqual(back, viaRedis(items));
  });

  it("reads columns by name: a job packed with the columns in another order reads the same", () => {
    const items = payloads().slice(0, 5);
    const data = viaRedis(packIngestGroup(items));
    const order = data.columns.map((_, c) => c).reverse();
    const reordered = {
      ...data,
      columns: order.map((c) => data.columns[c]!),
      items: data.items.map((item) => {
        const n = item[8] as number;
        const flat = item[9] as unknown[];
        return item.map((v, k) => (k === 9 ? order.flatMap((c) => flat.slice(c * n, (c + 1) * n)) : v));
      }),
    };
    assert.deepEqual(parseGroupPayloads("ingest", reordered).payloads, viaRedis(items));
  });

  it("a job whose columns lack a metric fails the payload check, as the first format's object would", () => {
    const items = payloads().slice(0, 2);
    const data = viaRedis(packIngestGroup(items));
    const drop = data.columns.indexOf(INGEST_NUMERIC_METRICS[3]);
    const without = {
      ...data,
      columns: data.columns.filter((_, c) => c !== drop),
      items: data.items.map((item) => {
        const n = item[8] as number;
        const flat = item[9] as unknown[];
        return item.map((v, k) => (k === 9 ? flat.filter((_, j) => Math.floor(j / n) !== drop) : v));
      }),
    };
    const { payloads: back, invalid } = parseGroupPayloads("ingest", without);
    assert.equal(back.length, 0);
    assert.equal(invalid.length, 2);
    assert.match(invalid[0]!, new RegExp(`samples\\.${INGEST_NUMERIC_METRICS[3]}`));
  });

  it("refuses a corrupted job whole, naming what is wrong, and gives no item", () => {
    const items = payloads().slice(0, 4);
    const good = viaRedis(packIngestGroup(items));
    const withItem = (i: number, change: (item: unknown[]) => unknown) => ({
      ...good,
      items: good.items.map((item, k) => (k === i ? change([...item]) : item)),
    });
    const cases: [unknown, RegExp][] = [
      [{ ...good, v: 3 }, /unknown format 3/],
      [{ ...good, columns: "time" }, /columns must be distinct/],
      [{ ...good, columns: [...good.columns.slice(1), good.columns[1]] }, /columns must be distinct/],
      [{ ...good, items: [] }, /items must hold 1-256/],
      [withItem(2, () => "not an array"), /items\.2: must be an array of 14 entries/],
      [withItem(1, (it) => it.slice(0, 13)), /items\.1: must be an array of 14 entries/],
      [withItem(0, (it) => ((it[8] = 0), it)), /items\.0: sample count must be 1-360/],
      [
        withItem(3, (it) => ((it[9] = (it[9] as unknown[]).slice(1)), it)),
        /items\.3: sample values must be 45 columns/,
      ],
      [withItem(1, (it) => ((it[11] = null), it)), /items\.1: remote IPs must be 3 arrays/],
      [withItem(2, (it) => ((it[13] = []), it)), /items\.2: its last entry must be an object/],
      [withItem(0, (it) => ((it[13] = { nodeId: "x" }), it)), /items\.0: its other fields may not hold "nodeId"/],
    ];
    for (const [data, message] of cases) {
      assert.throws(
        () => parseGroupPayloads("ingest", data),
        (error: Error & { code?: string }) => {
          assert.equal(error.code, "VALIDATION");
          assert.match(error.message, /^Invalid "ingest" group job payload \(format 2\): /);
          assert.match(error.message, message);
          return true;
        },
      );
    }
  });

  it("decides on the unpacked payloads as on the first format's (a bad value is the item's, with its path)", () => {
    const items = payloads().slice(0, 3);
    const data = viaRedis(packIngestGroup(items));
    (data.items[1]![9] as unknown[])[0] = -5; // time of the first sample
    const packed = parseGroupPayloads("ingest", data);
    const plain = viaRedis({ items });
    (plain.items[1]!.samples.time as number[])[0] = -5;
    const first = parseGroupPayloads("ingest", plain);
    assert.deepEqual(packed, first);
    assert.equal(packed.payloads.length, 2);
    assert.match(packed.invalid[0]!, /^items\.1: Invalid "ingest" job payload: samples\.time/);
  });
});

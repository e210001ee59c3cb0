/**
 * The fleet-load bench's agent batches, cheaply: the JSON text of makeAgentBatch(seq, { samples: 1,
 * remoteIps, start: at, sentAt: at }) (apps/ingest/test/support/agent-batches.ts) built once per
 * remote-IP count with a marker in every field that changes from batch to batch (sequence, times,
 * the values derived from the sequence, the remote IPs), so a batch is the template's pieces
 * joined with its own values: the same bytes as JSON.stringify of the object, without building it.
 * checkBatchTemplate compares the two.
 */
import { makeAgentBatch } from "../../apps/ingest/test/support/agent-batches.js";

/** Fields that vary per batch; `n:` ones are numbers (their marker's quotes go), the rest strings. */
type Field =
  | "n:batchSeq"
  | "sentAt"
  | "collectedAt"
  | "n:established"
  | "n:synRecv"
  | "n:timeWait"
  | "n:timeWaitOutbound"
  | "n:uptimeSeconds"
  | "n:headBlock"
  | "n:finalizedBlock"
  | "headTime"
  | "ipNet";

const marker = (field: Field) => `@@${field}@@`;

export interface BatchTemplate {
  /** The batch's JSON text for this sequence number and collection time. */
  render(seq: number, at: Date): string;
}

/** The template for batches of one sample with `remoteIps` remote IPs. */
export function createBatchTemplate(remoteIps: number): BatchTemplate {
  const batch = makeAgentBatch(1, { samples: 1, remoteIps, start: new Date(0), sentAt: new Date(0) });
  const sample = batch.samples[0]!;
  // The object is JSON text only from here on: markers stand where values go.
  const set = (target: object, key: string, field: Field) => ((target as Record<string, unknown>)[key] = marker(field));
  set(batch, "batchSeq", "n:batchSeq");
  set(batch, "sentAt", "sentAt");
  set(sample, "collectedAt", "collectedAt");
  const tcp = sample.tcp!;
  const chain = sample.chain!;
  set(tcp.states, "established", "n:established");
  set(tcp.states, "synRecv", "n:synRecv");
  set(tcp.states, "timeWait", "n:timeWait");
  set(tcp, "timeWaitOutbound", "n:timeWaitOutbound");
  set(sample.host!, "uptimeSeconds", "n:uptimeSeconds");
  set(chain, "headBlock", "n:headBlock");
  set(chain, "finalizedBlock", "n:finalizedBlock");
  set(chain, "headTime", "headTime");
  sample.remoteIps!.top.forEach((row, i) => (row.ip = `${marker("ipNet")}${i + 1}`));

  const text = JSON.stringify(batch);
  const pieces: string[] = [];
  const fields: Field[] = [];
  const pattern = /"?@@([a-zA-Z:]+)@@"?/g;
  let from = 0;
  for (let m = pattern.exec(text); m; m = pattern.exec(text)) {
    const field = m[1] as Field;
    const numeric = field.startsWith("n:");
    // A number's marker drops both quotes; a string's keeps those around it in the pieces.
    const start = numeric ? m.index : m.index + (m[0].startsWith('"') ? 1 : 0);
    const end = numeric ? m.index + m[0].length : m.index + m[0].length - (m[0].endsWith('"') ? 1 : 0);
    pieces.push(text.slice(from, start));
    fields.push(field);
    from = end;
  }
  pieces.push(text.slice(from));

  return {
    render(seq, at) {
      // makeAgentSample's index for the first (only) sample of batch `seq`.
      const index = seq;
      const head = 1_000_000 + index;
      const time = at.toISOString();
      const values: Record<Field, string> = {
        "n:batchSeq": String(seq),
        sentAt: time,
        collectedAt: time,
        "n:established": String(100 + (index % 50)),
        "n:synRecv": String(index % 3),
        "n:timeWait": String(40 + (index % 7)),
        "n:timeWaitOutbound": String(10 + (index % 7)),
        "n:uptimeSeconds": String(86_400 + index),
        "n:headBlock": String(head),
        "n:finalizedBlock": String(head - 20),
        headTime: new Date(at.getTime() - 1_500).toISOString(),
        ipNet: `10.${(index >> 8) & 255}.${index & 255}.`,
      };
      let out = pieces[0]!;
      for (let i = 0; i < fields.length; i++) out += values[fields[i]!] + pieces[i + 1]!;
      return out;
    },
  };
}

/** Throws unless the template gives JSON.stringify(makeAgentBatch(...))'s exact text for these cases. */
export function checkBatchTemplate(remoteIps: number, cases: readonly { seq: number; at: Date }[]): void {
  const template = createBatchTemplate(remoteIps);
  for (const { seq, at } of cases) {
    const expected = JSON.stringify(makeAgentBatch(seq, { samples: 1, remoteIps, start: at, sentAt: at }));
    const actual = template.render(seq, at);
    if (actual !== expected) {
      throw new Error(
        `batch template differs from makeAgentBatch (remoteIps ${remoteIps}, seq ${seq}):\n${actual}\n${expected}`,
      );
    }
  }
}

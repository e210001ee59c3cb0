// bodyText (the ingest body as text for JSON.parse) decodes exactly as UTF-8 decoding does, on the
// ASCII fast path and on everything else (multi-byte characters, a BOM, invalid sequences).
import assert from "node:assert/strict";
import { test } from "node:test";
import { bodyText } from "../src/http/read-body.js";
import { makeAgentBatch } from "./support/agent-batches.js";

test("bodyText equals UTF-8 decoding for ASCII and non-ASCII bodies", () => {
  const bodies = [
    Buffer.from(JSON.stringify(makeAgentBatch(1, { samples: 3 }))),
    Buffer.from(""),
    Buffer.from('{"agent":{"hostname":"nœud-1.example","version":"\u{1F680}"}}'),
    Buffer.from([0xef, 0xbb, 0xbf, 0x7b, 0x7d]),
    Buffer.from([0x7b, 0x22, 0xc3, 0x28, 0xff, 0x80, 0x22, 0x7d]),
    Buffer.from(Array.from({ length: 256 }, (_, i) => i)),
    Buffer.from(Array.from({ length: 128 }, (_, i) => i)),
  ];
  for (const raw of bodies) assert.equal(bodyText(raw), raw.toString("utf8"));
});

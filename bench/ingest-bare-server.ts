/**
 * Reference server for bench/ingest-http.ts: plain node:http that only gunzips and parses the
 * body (what any ingest endpoint must at least do), then answers 202. Port from argv[2].
 */
import { createServer } from "node:http";
import { gunzip } from "node:zlib";

const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on("data", (c: Buffer) => chunks.push(c));
  req.on("end", () => {
    gunzip(Buffer.concat(chunks), (error, raw) => {
      if (error) return void res.writeHead(400).end();
      const batch = JSON.parse(raw.toString("utf8")) as { samples: unknown[] };
      const body = JSON.stringify({ status: "accepted", samples: batch.samples.length });
      res.writeHead(202, { "content-type": "application/json", "content-length": Buffer.byteLength(body) }).end(body);
    });
  });
});
server.keepAliveTimeout = 65_000;
server.listen(Number(process.argv[2]), "127.0.0.1", () => console.log("bare server listening"));

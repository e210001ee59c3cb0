import { request } from "node:http";

export interface PostOptions {
  token?: string;
  body: Buffer | Buffer[];
  gzip?: boolean;
  contentType?: string;
  /** Send chunks without Content-Length (chunked transfer encoding). */
  chunked?: boolean;
  headers?: Record<string, string>;
}

export interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  json: { status?: string; error?: { code: string; message: string; details?: Record<string, unknown> } } & Record<
    string,
    unknown
  >;
}

/** POST to the ingest API the way the agent does (node:http, explicit headers). */
export function postBatch(port: number, options: PostOptions): Promise<Reply> {
  const chunks = Array.isArray(options.body) ? options.body : [options.body];
  const headers: Record<string, string> = {
    "content-type": options.contentType ?? "application/json",
    ...(options.gzip === false ? {} : { "content-encoding": "gzip" }),
    ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
    ...(options.chunked ? {} : { "content-length": String(chunks.reduce((n, c) => n + c.length, 0)) }),
    ...options.headers,
  };
  return new Promise<Reply>((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port, method: "POST", path: "/v1/ingest", headers }, (res) => {
      const parts: Buffer[] = [];
      res.on("data", (c: Buffer) => parts.push(c));
      res.on("end", () => {
        const text = Buffer.concat(parts).toString();
        let json: Reply["json"] = {};
        try {
          json = JSON.parse(text) as Reply["json"];
        } catch {
          json = { raw: text };
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, json });
      });
      res.on("error", reject);
    });
    // The server may answer and close before the whole body is sent (early 413/401): not an error here.
    req.on("error", (error: NodeJS.ErrnoException) => {
      if (error.code !== "EPIPE" && error.code !== "ECONNRESET") reject(error);
    });
    const write = async () => {
      for (const chunk of chunks) {
        if (req.destroyed) return;
        if (!req.write(chunk)) await new Promise((r) => req.once("drain", r));
      }
      req.end();
    };
    void write();
  });
}

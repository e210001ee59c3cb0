import type { Snippet } from "../types.js";

/**
 * nginx snippets are always fragments for the `http {}` context (upstream/server blocks and
 * http-level directives), so one checker can place any of them into a minimal nginx.conf and run
 * `nginx -t`. Listening lines never use `ssl` (that needs certificates to pass -t); the caveats
 * tell the operator to merge the parameters into their existing listen line.
 */
export function nginxUpstreamKeepalive(opts: {
  name: string;
  servers: readonly string[];
  listenPort: number;
  keepalive: number;
}): Snippet {
  const servers = opts.servers.map((s) => `    server ${s};`).join("\n");
  return {
    kind: "nginx",
    title: "nginx: reuse upstream connections (keepalive)",
    filename: "/etc/nginx/conf.d/rpcpulse-upstream.conf",
    content: `# http {} context: keep idle connections to the node open and reuse them
upstream ${opts.name} {
${servers}
    keepalive ${opts.keepalive};
}

server {
    listen ${opts.listenPort};
    location / {
        proxy_pass http://${opts.name};
        # needed before nginx 1.29.7: HTTP/1.1 and no "Connection: close" to the upstream
        proxy_http_version 1.1;
        proxy_set_header Connection "";
    }
}
`,
    applyCommand: "nginx -t && systemctl reload nginx",
  };
}

export function nginxListenBacklog(opts: { port: number; backlog: number }): Snippet {
  return {
    kind: "nginx",
    title: `nginx: accept queue of ${opts.backlog} on port ${opts.port}`,
    filename: "/etc/nginx/sites-enabled/<your site> (edit the existing listen line)",
    content: `# http {} context: the backlog= parameter goes on the existing listen line of port ${opts.port}
server {
    listen ${opts.port} backlog=${opts.backlog};
}
`,
    applyCommand: "nginx -t && systemctl restart nginx",
  };
}

export interface PerIpLimits {
  ports: readonly number[];
  connLimit: number;
  rate: number;
  burst: number;
  dryRun: boolean;
  zoneMb: number;
}

/** limit_conn + limit_req per client address; dryRun = measure only (limit_*_dry_run on). */
export function nginxPerIpLimits(o: PerIpLimits): Snippet {
  const listen = o.ports.map((p) => `    listen ${p};`).join("\n");
  const dry = o.dryRun ? "on" : "off";
  return {
    kind: "nginx",
    title: o.dryRun ? "nginx: per-IP limits in dry-run (measure first)" : "nginx: per-IP limits enforced",
    filename: "/etc/nginx/conf.d/rpcpulse-limits.conf",
    content: `# http {} context
limit_conn_zone $binary_remote_addr zone=rpc_conn_per_ip:${o.zoneMb}m;
limit_req_zone  $binary_remote_addr zone=rpc_req_per_ip:${o.zoneMb}m rate=${o.rate}r/s;
limit_conn_status 429;
limit_req_status 429;

server {
${listen}
    location / {
        limit_conn rpc_conn_per_ip ${o.connLimit};
        limit_req  zone=rpc_req_per_ip burst=${o.burst} nodelay;
        # ${o.dryRun ? 'dry run: excess is only counted and logged ("limiting ... dry run" in error.log)' : "enforced: excess gets HTTP 429"}
        limit_conn_dry_run ${dry};
        limit_req_dry_run ${dry};
        # proxy_pass to your node here, as in your existing location
    }
}
`,
    applyCommand: "nginx -t && systemctl reload nginx",
    dryRunFirst: o.dryRun,
  };
}

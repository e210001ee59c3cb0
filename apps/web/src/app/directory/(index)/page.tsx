import type { Metadata } from "next";
import { listDirectoryChains } from "@rpcpulse/services/directory";
import { formatAgo } from "@/lib/format.js";
import { getRuntime } from "@/server/runtime.js";
import { Time } from "@/components/time.js";

export const dynamic = "force-dynamic";

export const metadata: Metadata = {
  title: "Public RPC endpoint directory",
  description: "Public RPC endpoints for Hive, Steem, Ethereum and Polkadot, probed continuously and ranked.",
};

export default async function DirectoryIndexPage() {
  const { chains } = await listDirectoryChains({ sql: getRuntime().reads.sql });
  const now = Date.now();
  return (
    <>
      <div className="page-head">
        <div>
          <h1>Public RPC endpoint directory</h1>
          <p>
            Public endpoints probed continuously from our vantage points and ranked by availability, latency, lag and
            capabilities. <a href="/directory/methodology">How the ranking works</a>.
          </p>
        </div>
        <div className="dir-head-actions">
          <a className="button secondary" href="/directory/submit">
            Submit an endpoint
          </a>{" "}
          <a className="button secondary" href="/api/v1/chains">
            JSON API
          </a>
        </div>
      </div>
      {chains.length === 0 ? (
        <div className="card empty">
          <h2>No networks yet</h2>
          <p>The chain catalogue is empty: run the database migration, which seeds it.</p>
        </div>
      ) : (
        <ul className="dir-chains" aria-label="Networks">
          {chains.map((c) => (
            <li key={c.network}>
              <a className="card dir-chain" href={`/directory/${c.network}`} data-testid={`chain-${c.network}`}>
                <h2>{c.name}</h2>
                <dl>
                  <dt>Endpoints</dt>
                  <dd>{c.endpoints.total.toLocaleString("en-US")}</dd>
                  <dt>Active</dt>
                  <dd>{c.endpoints.active.toLocaleString("en-US")}</dd>
                  <dt>Probation</dt>
                  <dd>{c.endpoints.probation.toLocaleString("en-US")}</dd>
                  <dt>Dead</dt>
                  <dd>{c.endpoints.dead.toLocaleString("en-US")}</dd>
                  <dt>Ranked</dt>
                  <dd>{c.updatedAt ? formatAgo(c.updatedAt, now) : "not yet"}</dd>
                  <dt>Network head</dt>
                  <dd data-testid={`head-${c.network}`}>
                    {c.head ? (
                      <>
                        #{c.head.block.toLocaleString("en-US")}{" "}
                        <span className="muted small">
                          ({c.head.agreeing} of {c.head.considered} agree, <Time at={c.head.at} />)
                        </span>
                      </>
                    ) : (
                      "no consensus yet"
                    )}
                  </dd>
                </dl>
              </a>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}

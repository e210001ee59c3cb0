import Link from "next/link";
import { redirect } from "next/navigation";
import { PublicHeader } from "../components/public-header.js";
import { getCurrentSession } from "../server/session.js";

export const dynamic = "force-dynamic";

export default async function HomePage() {
  if (await getCurrentSession()) redirect("/app");
  return (
    <>
      <PublicHeader />
      <main id="main" className="landing">
        <h1>Know your RPC nodes are healthy</h1>
        <p>
          RPC Pulse watches your Hive, Steem, Ethereum and Polkadot nodes: head lag, peers, latency and resource use, in
          one place for your whole team.
        </p>
        <div className="actions">
          <Link className="button" href="/sign-up">
            Create an account
          </Link>
          <Link className="button secondary" href="/sign-in">
            Sign in
          </Link>
        </div>
      </main>
    </>
  );
}

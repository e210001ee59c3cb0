import Link from "next/link";
import { redirect } from "next/navigation";
import { PublicHeader } from "@/components/public-header.js";
import { getCurrentSession } from "@/server/session.js";

export const dynamic = "force-dynamic";

/**
 * The landing page: what RPC Pulse is, with screenshots of the real pages. The screenshots are
 * taken by the e2e suite (e2e/specs/screenshots.spec.ts) from its own running stack on every run and
 * committed under public/screenshots, so they show the product as it is.
 */
const SHOTS = [
  {
    file: "fleet",
    title: "Fleet",
    text: "Every node of your organization with its status, lag behind the network's consensus head, finality, latency and connections.",
  },
  {
    file: "advisor",
    title: "Tuning advisor",
    text: "Suggestions from the node's own telemetry, with the evidence, the exact change, and a before/after check once applied.",
  },
  {
    file: "directory",
    title: "Public directory",
    text: "Public RPC endpoints ranked by availability, latency, lag and capabilities, probed continuously from several regions.",
  },
  {
    file: "status-page",
    title: "Status pages",
    text: "A public status page per service, with 90-day uptime, incidents, maintenance windows and feeds.",
  },
];

const FEATURES = [
  ["Agent on each node", "One-line install; head, peers, latency phases, sockets and resources every few seconds."],
  [
    "Alerts that mean it",
    "Lag, head age, latency and port exhaustion rules with hysteresis, to email, Slack, Discord, Telegram or webhooks.",
  ],
  [
    "Hive, Steem, Ethereum, Polkadot",
    "Consensus heads from independent sources, so lag is measured against the network, not one node.",
  ],
];

export default async function HomePage() {
  if (await getCurrentSession()) redirect("/app");
  return (
    <>
      <PublicHeader />
      <main id="main">
        <div className="landing">
          <h1>Know your RPC nodes are healthy</h1>
          <p>
            RPC Pulse watches your Hive, Steem, Ethereum and Polkadot nodes: head lag, peers, latency and resource use,
            in one place for your whole team, with a public directory and status pages for your users.
          </p>
          <div className="actions">
            <Link className="button" href="/sign-up">
              Create an account
            </Link>
            <Link className="button secondary" href="/directory">
              Browse the directory
            </Link>
          </div>
        </div>
        <section className="landing-features" aria-label="What it does">
          {FEATURES.map(([title, text]) => (
            <div key={title} className="card">
              <h2>{title}</h2>
              <p className="muted">{text}</p>
            </div>
          ))}
        </section>
        <section className="landing-shots" aria-label="Screenshots">
          {SHOTS.map((s) => (
            <figure key={s.file}>
              {/* Plain <img>: static files from public/, sized by CSS; no image optimizer needed. */}
              <img
                src={`/screenshots/${s.file}.png`}
                alt={`Screenshot of the ${s.title.toLowerCase()} page`}
                width={1280}
                height={800}
                loading="lazy"
              />
              <figcaption>
                <strong>{s.title}.</strong> {s.text}
              </figcaption>
            </figure>
          ))}
        </section>
      </main>
    </>
  );
}

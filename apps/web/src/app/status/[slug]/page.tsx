import type { Metadata } from "next";
import { headers } from "next/headers";
import { notFound } from "next/navigation";
import { PublicStatusView } from "@/features/status/public-status-view.js";
import { basePathFor } from "@/features/status/page-lookup.js";
import { loadSnapshot } from "@/features/status/public-route.js";

export const dynamic = "force-dynamic";

type Props = {
  params: Promise<{ slug: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
};

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { slug } = await params;
  const snapshot = await loadSnapshot(slug);
  if (!snapshot) return { title: "Status page not found" };
  const base = basePathFor(slug, snapshot.page.slug);
  return {
    title: { absolute: `${snapshot.page.title} status` },
    description: snapshot.page.description || `Live status of ${snapshot.page.title}`,
    alternates: {
      types: {
        "application/rss+xml": `${base}/rss`,
        "application/atom+xml": `${base}/atom`,
        "application/feed+json": `${base}/feed.json`,
      },
    },
  };
}

/** The public status page: no sign-in, server-rendered from a snapshot cached ~30 s. */
export default async function StatusPage({ params, searchParams }: Props) {
  const { slug } = await params;
  const query = await searchParams;
  const snapshot = await loadSnapshot(slug);
  if (!snapshot) notFound();
  const nonce = (await headers()).get("x-nonce") ?? undefined;
  const subscription = typeof query.subscription === "string" ? query.subscription : undefined;
  return (
    <>
      {/* The page's accent colour (validated #rrggbb) as a CSS variable; nonce'd for the CSP. */}
      <style
        nonce={nonce}
      >{`.sp{--sp-accent:${/^#[0-9a-fA-F]{6}$/.test(snapshot.page.accentColor) ? snapshot.page.accentColor : "#2563eb"}}`}</style>
      <PublicStatusView
        snapshot={snapshot}
        basePath={basePathFor(slug, snapshot.page.slug)}
        subscription={subscription}
      />
    </>
  );
}

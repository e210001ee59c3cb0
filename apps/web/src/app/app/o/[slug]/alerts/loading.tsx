import { PageSkeleton } from "@/components/page-skeleton.js";

/** Shown while the server renders this page (it waits on the database). */
export default function Loading() {
  return <PageSkeleton label="alerts" shell="app" tiles={3} cards={3} rows={5} />;
}

import { PageSkeleton } from "@/components/page-skeleton.js";

/** Shown while the server renders this page (it waits on the database). */
export default function Loading() {
  return <PageSkeleton label="endpoints and claims" shell="app" cards={2} rows={5} />;
}

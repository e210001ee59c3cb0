import { PageSkeleton } from "@/components/page-skeleton.js";

/** Shown while the server renders this page (it waits on the database). */
export default function Loading() {
  return <PageSkeleton label="the status page" shell="none" cards={3} rows={4} />;
}

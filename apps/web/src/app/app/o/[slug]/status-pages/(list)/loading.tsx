import { PageSkeleton } from "@/components/page-skeleton.js";

/** Shown while the server renders this page (it waits on the database). */
export default function Loading() {
  return <PageSkeleton label="status pages" shell="app" rows={5} />;
}

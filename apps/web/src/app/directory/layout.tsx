import type { ReactNode } from "react";
import { PublicHeader } from "@/components/public-header.js";
import "@/features/directory/directory.css";
import "@/features/directory/endpoint.css";

/** Public directory: no sign-in, server-rendered. */
export default function DirectoryLayout({ children }: { children: ReactNode }) {
  return (
    <>
      <PublicHeader />
      <main id="main" className="page dir-page">
        {children}
      </main>
    </>
  );
}

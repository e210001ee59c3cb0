import { renderAtom } from "@/features/status/feeds.js";
import { pageUrlFor, publicStatusRoute, xmlResponse } from "@/features/status/public-route.js";

export const dynamic = "force-dynamic";

/** GET /status/<slug>/atom: Atom 1.0 of the page's incidents and maintenance. */
export const GET = publicStatusRoute((snapshot, param) =>
  xmlResponse(renderAtom(snapshot, pageUrlFor(param, snapshot)), "application/atom+xml"),
);

import "server-only";
import { cache } from "react";
import { notFound } from "next/navigation";
import { isAppError } from "@rpcpulse/config";
import { getEndpointDetail } from "@rpcpulse/services/directory";
import { getRuntime } from "@/server/runtime.js";

/**
 * One endpoint's detail for a render (layout, metadata and page share it): an unknown endpoint is a 404.
 */
export const loadEndpointDetail = cache(async (id: string) => {
  try {
    return await getEndpointDetail({ sql: getRuntime().reads.sql }, { endpointId: id });
  } catch (error) {
    if (isAppError(error) && error.code === "NOT_FOUND") notFound();
    throw error;
  }
});

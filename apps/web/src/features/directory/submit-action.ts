"use server";
import { submitEndpoint } from "@rpcpulse/services/directory";
import { revalidatePath } from "next/cache";
import { formValues, runFormAction, type FormState } from "@/server/action.js";
import { getRuntime } from "@/server/runtime.js";
import { requireSession } from "@/server/session.js";

/** Submit a public endpoint (signed-in users); it is listed on probation until probed healthy. */
export async function submitEndpointAction(_prev: FormState, formData: FormData): Promise<FormState> {
  const values = formValues(formData);
  return runFormAction(
    async () => {
      const session = await requireSession("/directory/submit");
      const endpoint = Object.fromEntries(
        (["url", "network", "family", "name", "provider"] as const)
          .map((k) => [k, (values[k] ?? "").trim()] as const)
          .filter(([, v]) => v !== ""),
      );
      const { sql, env } = getRuntime();
      const created = await submitEndpoint(
        { sql, allowPrivate: env.PROBE_ALLOW_PRIVATE },
        { userId: session.userId, endpoint },
      );
      revalidatePath(`/directory/${created.network}`);
      return {
        status: "ok",
        message: `${created.url} is listed on probation; it is ranked once it has been probed healthy.`,
        data: { id: created.id, network: created.network },
      };
    },
    { fieldErrors: "check", values },
  );
}

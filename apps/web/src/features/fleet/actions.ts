"use server";
import { AppError, RPCPULSE_VERSION } from "@rpcpulse/config";
import {
  deleteNode,
  enrollNode,
  getNode,
  revokeAgentToken,
  rotateAgentToken,
  updateNode,
} from "@rpcpulse/services/fleet";
import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { z } from "zod";
import { formValues, runFormAction, type FormState } from "@/server/action.js";
import { getRuntime } from "@/server/runtime.js";
import { requireOrgContext } from "@/server/session.js";
import { getFleetDeps } from "./fleet-deps.js";
import {
  buildForegroundCommand,
  buildInstallCommand,
  buildReviewedInstallCommand,
  toInstanceName,
} from "./install-command.js";

const Slug = z.string().trim().min(1).max(64);
const NodeId = z.string().trim().min(1).max(64);

function commandsFor(node: { id: string; name: string; apiFamily: string; localRpcUrl: string }, token: string) {
  const { env } = getRuntime();
  const input = {
    appBaseUrl: env.APP_BASE_URL,
    ingestUrl: env.INGEST_PUBLIC_URL,
    token,
    nodeId: node.id,
    nodeName: node.name,
    apiFamily: node.apiFamily,
    localRpcUrl: node.localRpcUrl,
  };
  return {
    token,
    installCommand: buildInstallCommand(input),
    reviewedInstallCommand: buildReviewedInstallCommand(input),
    foregroundCommand: buildForegroundCommand(input),
    instanceName: toInstanceName(node.name),
    appBaseUrl: env.APP_BASE_URL.replace(/\/+$/, ""),
    agentVersion: RPCPULSE_VERSION,
  };
}

/**
 * Enroll a node; the token is returned once, in this response only. AppErrors that name a field
 * (CONFLICT on the name, VALIDATION of the family) go next to it, here and in updateNodeAction.
 */
export async function enrollNodeAction(_prev: FormState, formData: FormData): Promise<FormState> {
  const values = formValues(formData);
  return runFormAction(
    async () => {
      const { ctx } = await requireOrgContext(Slug.parse(values.slug));
      const { node, issued } = await enrollNode(getFleetDeps(), ctx, values);
      revalidatePath(`/app/o/${ctx.organizationSlug}`);
      return {
        status: "ok",
        message: `${node.name} enrolled.`,
        data: { nodeId: node.id, nodeName: node.name, ...commandsFor(node, issued.token) },
      };
    },
    { fieldErrors: "check", values },
  );
}

export async function updateNodeAction(_prev: FormState, formData: FormData): Promise<FormState> {
  const values = formValues(formData);
  return runFormAction(
    async () => {
      const { ctx } = await requireOrgContext(Slug.parse(values.slug));
      const node = await updateNode(getFleetDeps(), ctx, { nodeId: NodeId.parse(values.nodeId), fields: values });
      revalidatePath(`/app/o/${ctx.organizationSlug}/nodes/${node.id}`);
      return { status: "ok", message: "Settings saved." };
    },
    { fieldErrors: "check", values },
  );
}

export async function deleteNodeAction(_prev: FormState, formData: FormData): Promise<FormState> {
  const values = formValues(formData);
  const result = await runFormAction(async () => {
    const input = z.object({ slug: Slug, nodeId: NodeId, confirm: z.string() }).parse(values);
    const { ctx } = await requireOrgContext(input.slug);
    if (input.confirm !== "delete") throw new AppError("VALIDATION", "Type delete to confirm.");
    await deleteNode(getFleetDeps(), ctx, { nodeId: input.nodeId });
    revalidatePath(`/app/o/${ctx.organizationSlug}`);
    return { status: "ok", message: "Node deleted." };
  });
  if (result.status === "ok") redirect(`/app/o/${Slug.parse(values.slug)}`);
  return result;
}

/** New token; the old ones keep working for 24 h so the agent can switch without a gap. */
export async function rotateTokenAction(_prev: FormState, formData: FormData): Promise<FormState> {
  return runFormAction(async () => {
    const input = z.object({ slug: Slug, nodeId: NodeId }).parse(formValues(formData));
    const { ctx } = await requireOrgContext(input.slug);
    const deps = getFleetDeps();
    const node = await getNode(deps, ctx, { nodeId: input.nodeId });
    const issued = await rotateAgentToken(deps, ctx, { nodeId: node.id });
    revalidatePath(`/app/o/${ctx.organizationSlug}/nodes/${input.nodeId}`);
    return {
      status: "ok",
      message: `New token issued; ${issued.expiringPrefixes} older token(s) stop working in 24 h. Copy it now: it is shown only once.`,
      data: commandsFor(node, issued.token),
    };
  });
}

export async function revokeTokenAction(_prev: FormState, formData: FormData): Promise<FormState> {
  return runFormAction(async () => {
    const input = z.object({ slug: Slug, nodeId: NodeId, tokenId: z.string().max(64) }).parse(formValues(formData));
    const { ctx } = await requireOrgContext(input.slug);
    const record = await revokeAgentToken(getFleetDeps(), ctx, { tokenId: input.tokenId });
    revalidatePath(`/app/o/${ctx.organizationSlug}/nodes/${input.nodeId}`);
    return { status: "ok", message: `Token rpa_${record.prefix}_… revoked.` };
  });
}

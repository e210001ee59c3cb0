import { AppError } from "@rpcpulse/config";
import { insertAlertChannel, type AlertChannelRow } from "@rpcpulse/db/alerting";
import type { ChannelType } from "@rpcpulse/notify";
import { requireRole, type ServiceContext } from "../../context.js";
import type { AlertingDeps } from "../alerting-deps.js";
import { encryptSecret } from "../channel-secrets.js";
import { ChannelForm, summariseChannel, toChannelConfig } from "./alert-channel-input.js";

export interface CreatedChannel {
  channel: AlertChannelRow;
  /** The webhook signing secret: returned once, here only. */
  signingSecret: string | null;
}

/** Create a channel (admins and owners). Its configuration is stored encrypted. */
export async function createAlertChannel(
  deps: Pick<AlertingDeps, "prisma" | "secretsKey">,
  ctx: ServiceContext,
  raw: unknown,
): Promise<CreatedChannel> {
  requireRole(ctx, "admin");
  const form = ChannelForm.safeParse(raw);
  if (!form.success) {
    const issue = form.error.issues[0];
    throw new AppError("VALIDATION", issue?.message ?? "Invalid channel.", {
      details: { field: String(issue?.path[0] ?? "name") },
    });
  }
  const config = toChannelConfig(form.data);
  const result = await insertAlertChannel(deps.prisma, {
    organizationId: ctx.organizationId,
    name: form.data.name,
    type: config.type as ChannelType,
    configEnc: encryptSecret(deps.secretsKey, JSON.stringify(config)),
    summary: summariseChannel(config),
  });
  if (!result.ok) throw new AppError("CONFLICT", "Another channel has that name.", { details: { field: "name" } });
  return { channel: result.channel, signingSecret: config.type === "webhook" ? config.secret : null };
}

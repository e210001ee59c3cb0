import { AppError } from "@rpcpulse/config";
import { ChannelConfig, generateSigningSecret } from "@rpcpulse/notify";
import { z } from "zod";

export const ChannelForm = z.object({
  name: z.string().trim().min(1, "Give the channel a name.").max(80),
  type: z.enum(["email", "webhook", "slack", "discord", "telegram"]),
  /** email: comma/space separated recipients. */
  to: z.string().max(2_000).optional(),
  url: z.string().trim().max(2_048).optional(),
  botToken: z.string().trim().max(200).optional(),
  chatId: z.string().trim().max(100).optional(),
});

/** Shown in the UI instead of the secret parts: origin + first path segment, or masked token. */
export function summariseChannel(config: ChannelConfig): string {
  switch (config.type) {
    case "email":
      return config.to.join(", ");
    case "webhook": {
      const u = new URL(config.url);
      return `${u.origin}${u.pathname}`.slice(0, 200);
    }
    case "slack":
    case "discord": {
      const u = new URL(config.url);
      const first = u.pathname.split("/").filter(Boolean).slice(0, 2).join("/");
      return `${u.origin}/${first}/…`;
    }
    case "telegram":
      return `chat ${config.chatId} via bot ${config.botToken.split(":")[0]}:…`;
  }
}

/** The form as the channel's configuration (a fresh signing secret for a webhook). */
export function toChannelConfig(form: z.infer<typeof ChannelForm>): ChannelConfig {
  const candidate =
    form.type === "email"
      ? { type: "email", to: (form.to ?? "").split(/[\s,;]+/).filter(Boolean) }
      : form.type === "webhook"
        ? { type: "webhook", url: form.url ?? "", secret: generateSigningSecret() }
        : form.type === "telegram"
          ? { type: "telegram", botToken: form.botToken ?? "", chatId: form.chatId ?? "" }
          : { type: form.type, url: form.url ?? "" };
  const parsed = ChannelConfig.safeParse(candidate);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = String(issue?.path[0] ?? "url");
    throw new AppError("VALIDATION", `${field === "to" ? "Recipients" : field}: ${issue?.message ?? "invalid"}`, {
      details: { field },
    });
  }
  return parsed.data;
}

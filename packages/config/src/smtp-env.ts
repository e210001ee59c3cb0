import { z } from "zod";

const flag = (fallback: "true" | "false") =>
  z
    .enum(["true", "false", "1", "0"])
    .default(fallback)
    .transform((v) => v === "true" || v === "1");

/**
 * The operator's SMTP relay, shared by the worker (alert and status-page mail) and the web app
 * (password reset, email verification, invitations). Unset SMTP_URL: no mail is sent; the web app
 * says so where it matters and logs a warning at start.
 */
export const smtpEnv = {
  /** smtp://user:pass@host:587 (STARTTLS when offered) or smtps://host:465 (implicit TLS); unset: no mail is sent. */
  SMTP_URL: z.preprocess(
    (v) => (v === "" ? undefined : v),
    z
      .string()
      .regex(/^smtps?:\/\/\S+$/, "must be smtp://… or smtps://…")
      .optional(),
  ),
  /** Sender of every mail (alerts, status-page updates, account mail); the relay must accept it. */
  SMTP_FROM: z.string().min(3).max(320).default("RPC Pulse <alerts@localhost>"),
  /** Refuse to send unless STARTTLS succeeds (smtp:// URLs). */
  SMTP_REQUIRE_TLS: flag("false"),
  /** Verify the relay's certificate (turn off only for a self-signed relay on a private network). */
  SMTP_TLS_REJECT_UNAUTHORIZED: flag("true"),
};

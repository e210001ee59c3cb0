import { API_FAMILIES, NETWORKS } from "@rpcpulse/domain";
import { z } from "zod";

const httpUrl = z
  .string()
  .trim()
  .max(500)
  .refine((v) => {
    try {
      const u = new URL(v);
      return (
        (u.protocol === "http:" || u.protocol === "https:" || u.protocol === "ws:" || u.protocol === "wss:") &&
        u.hostname !== ""
      );
    } catch {
      return false;
    }
  }, "Enter a full URL, e.g. http://127.0.0.1:8091");

const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .optional()
    .transform((v) => (v ? v : null));

/** What an operator enters to enroll or edit a node. The API family is checked against the chain in the service. */
export const NodeInput = z.object({
  network: z.enum(NETWORKS.map((n) => n.slug) as [string, ...string[]], { error: "Pick a network." }),
  apiFamily: z.enum(API_FAMILIES, { error: "Pick an API family." }),
  clientName: z.string().trim().min(1, "Enter the client, e.g. hived or geth.").max(64),
  clientVersion: optionalText(64),
  name: z
    .string()
    .trim()
    .min(1, "Enter a name.")
    .max(64)
    .regex(/^[\p{L}\p{N}][\p{L}\p{N} ._-]*$/u, "Letters, digits, spaces, dots, dashes and underscores."),
  localRpcUrl: httpUrl,
  publicUrl: z
    .string()
    .trim()
    .max(500)
    .optional()
    .transform((v) => (v ? v : null))
    .pipe(httpUrl.nullable()),
  region: optionalText(64),
});
export type NodeInput = z.infer<typeof NodeInput>;

import { buildWireFormatJsonSchema } from "@rpcpulse/domain";

/** Print the wire format's JSON Schema (what apps/agent/wire-format.schema.json holds). */
export function schemaCommand(out: NodeJS.WritableStream): number {
  out.write(`${JSON.stringify(buildWireFormatJsonSchema(), null, 2)}\n`);
  return 0;
}

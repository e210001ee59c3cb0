/**
 * Reads what the configuration reference says about one env variable from its zod schema: type,
 * default, whether it must be set, and its description (`.describe()` on any layer, else the JSDoc
 * comment written above the variable in the source, looked up by ./source-comments.ts).
 */
import type { z } from "zod";

export interface VariableInfo {
  type: string;
  /** Default as the app sees it before transforms ("" for an empty-string default); undefined when none. */
  defaultValue: string | undefined;
  required: boolean;
  description: string | undefined;
}

interface Def {
  type: string;
  innerType?: Schema;
  in?: Schema;
  out?: Schema;
  defaultValue?: unknown;
  entries?: Record<string, string>;
  format?: string;
  options?: Schema[];
}
interface Schema {
  _zod: { def: Def };
  description?: string;
  minValue?: number | null;
  maxValue?: number | null;
  format?: string | null;
}

/** The layers of a schema from the outside in (defaults, optionals, pipes' input side). */
function layers(schema: Schema): Schema[] {
  const out: Schema[] = [];
  let current: Schema | undefined = schema;
  while (current) {
    out.push(current);
    const def: Def = current._zod.def;
    if (def.type === "pipe") {
      // A preprocess is pipe(transform, inner): the declared type is on the output side.
      current = def.in?._zod.def.type === "transform" ? def.out : def.in;
    } else current = def.innerType;
  }
  return out;
}

function formatNumber(n: number): string {
  return Math.abs(n) >= 10_000 && Number.isInteger(n) ? n.toLocaleString("en-US").replace(/,/g, "_") : String(n);
}

function describeType(base: Schema): string {
  const def = base._zod.def;
  switch (def.type) {
    case "enum": {
      const values = Object.values(def.entries ?? {});
      if (values.length === 4 && ["true", "false", "1", "0"].every((v) => values.includes(v))) return "boolean";
      return values.map((v) => `\`${v}\``).join(" | ");
    }
    case "number": {
      const integer = base.format === "safeint" || base.format === "int32";
      const min = base.minValue;
      const max = base.maxValue;
      const bounded = (v: number | null | undefined) => v !== null && v !== undefined && Number.isFinite(v);
      const range =
        bounded(min) && bounded(max) && Math.abs(max as number) < Number.MAX_SAFE_INTEGER
          ? ` ${formatNumber(min as number)}–${formatNumber(max as number)}`
          : bounded(min) && Math.abs(min as number) < Number.MAX_SAFE_INTEGER
            ? ` ≥ ${formatNumber(min as number)}`
            : "";
      return `${integer ? "integer" : "number"}${range}`;
    }
    case "string":
      return def.format === "url" ? "URL" : "string";
    case "union":
      return (def.options ?? []).map((o) => describeType(o)).join(" or ");
    default:
      return def.type;
  }
}

export function describeVariable(schema: z.ZodType): VariableInfo {
  const all = layers(schema as unknown as Schema);
  const base = all[all.length - 1] as Schema;
  const withDefault = all.find((s) => s._zod.def.type === "default");
  const optional = all.some((s) => s._zod.def.type === "optional");
  const raw = withDefault?._zod.def.defaultValue;
  return {
    type: describeType(base),
    defaultValue: raw === undefined ? undefined : String(raw),
    required: !withDefault && !optional,
    description: all.map((s) => s.description).find((d) => d !== undefined && d !== ""),
  };
}

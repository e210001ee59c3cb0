import { z } from "zod";

/**
 * Row value coercion shared by the time-series row schemas. The pg driver returns int8 and
 * numeric as strings, PGlite returns int8 as numbers; both become numbers here (block heights and
 * byte counts stay far below 2^53).
 */
export const dbNumber = z.union([
  z.number(),
  z.bigint().transform((v) => Number(v)),
  z
    .string()
    .regex(/^-?\d+(\.\d+)?(e[+-]?\d+)?$/i)
    .transform((v) => Number(v)),
]);
export const dbNumberOrNull = dbNumber.nullable();
export const dbDate = z.union([z.date(), z.string().transform((v) => new Date(v))]);
export const dbDateOrNull = dbDate.nullable();
export const dbNumberArray = z.array(dbNumber);

/** Input validators matching the column types. */
export const int4 = z.number().int().min(-2_147_483_648).max(2_147_483_647);
export const int2 = z.number().int().min(-32_768).max(32_767);
export const int8 = z.number().int().min(Number.MIN_SAFE_INTEGER).max(Number.MAX_SAFE_INTEGER);
export const float = z.number().finite();

export const Resolution = z.enum(["raw", "1m", "1h", "auto"]);
export type Resolution = z.infer<typeof Resolution>;

export const TimeRange = z
  .object({ from: z.coerce.date(), to: z.coerce.date() })
  .refine((r) => r.from.getTime() < r.to.getTime(), "from must be before to");

/** auto: raw up to 6 hours, 1-minute rollups up to 7 days, 1-hour rollups beyond. */
export function pickResolution(resolution: Resolution, from: Date, to: Date): "raw" | "1m" | "1h" {
  if (resolution !== "auto") return resolution;
  const span = to.getTime() - from.getTime();
  if (span <= 6 * 3_600_000) return "raw";
  if (span <= 7 * 86_400_000) return "1m";
  return "1h";
}

/** Build unnest() parameter arrays, one per column, from validated rows. */
export function toColumnArrays<Row>(rows: readonly Row[], fields: readonly (keyof Row)[]): unknown[][] {
  return fields.map((field) => rows.map((row) => row[field] ?? null));
}

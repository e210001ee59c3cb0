"use server";
import { AppError } from "@rpcpulse/config";
import {
  createStatusComponent,
  createStatusGroup,
  deleteMaintenance,
  createIncident,
  createStatusPage,
  updateIncident,
  updateMaintenance,
  updateStatusComponent,
  updateStatusGroup,
  updateStatusPage,
  createIncidentUpdate,
  deleteIncident,
  deleteStatusComponent,
  deleteStatusGroup,
  deleteStatusPage,
  deleteSubscriber,
  createMaintenance,
  setCustomDomain,
  verifyCustomDomain,
} from "@rpcpulse/services/status";
import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { z } from "zod";
import { runFormAction, type FormState } from "@/server/action.js";
import { requireOrgContext } from "@/server/session.js";
import { getStatusIncidentDeps, getStatusReadDeps } from "./status-deps.js";
import { isValidTimeZone, UTC, zonedInputToUtc } from "@/lib/format.js";

/**
 * Server actions of the status-page admin. Each: parse the ids, resolve the org context from
 * the signed-in user's membership (404 otherwise), call ONE service verb (which checks the role).
 */

const Id = z.string().trim().min(1).max(64);

function values(formData: FormData): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const key of new Set(formData.keys())) {
    if (key.startsWith("$ACTION")) continue;
    const all = formData.getAll(key).filter((v): v is string => typeof v === "string");
    out[key] = key === "componentIds" ? all : (all[0] ?? "");
  }
  return out;
}

function str(v: Record<string, string | string[]>, key: string): string {
  const value = v[key];
  return Array.isArray(value) ? (value[0] ?? "") : (value ?? "");
}

/** runFormAction with field-named AppErrors next to their field. */
function act(fn: () => Promise<FormState>): Promise<FormState> {
  return runFormAction(fn, { fieldErrors: "own" });
}

/**
 * datetime-local inputs carry no zone: the form sends the zone they were filled in (timeZone), and
 * they become UTC instants here. A time the clocks skip in that zone is refused with a reason; one
 * that happens twice is its first occurrence. A value with its own offset is taken as it is.
 */
function maintenanceFields(v: Record<string, string | string[]>) {
  const zone = str(v, "timeZone") || UTC;
  if (!isValidTimeZone(zone)) {
    throw new AppError("VALIDATION", "Pick a known time zone.", { details: { field: "timeZone" } });
  }
  const at = (name: "startsAt" | "endsAt") => {
    const raw = str(v, name);
    if (!raw || /[zZ]|[+-]\d\d:\d\d$/.test(raw)) return raw;
    const instant = zonedInputToUtc(raw, zone);
    if (!instant) {
      throw new AppError("VALIDATION", `${raw.replace("T", " ")} does not exist in ${zone} (the clocks skip it).`, {
        details: { field: name },
      });
    }
    return instant.toISOString();
  };
  return { ...v, startsAt: at("startsAt"), endsAt: at("endsAt") };
}

async function context(v: Record<string, string | string[]>) {
  return (await requireOrgContext(Id.parse(str(v, "orgSlug")))).ctx;
}

function refresh(orgSlug: string, pageId?: string) {
  revalidatePath(`/app/o/${orgSlug}/status-pages`);
  if (pageId) revalidatePath(`/app/o/${orgSlug}/status-pages/${pageId}`);
}

export async function createStatusPageAction(_prev: FormState, formData: FormData): Promise<FormState> {
  const v = values(formData);
  let target = "";
  const result = await act(async () => {
    const ctx = await context(v);
    const { id } = await createStatusPage(getStatusReadDeps(), ctx, v);
    target = `/app/o/${ctx.organizationSlug}/status-pages/${id}`;
    return { status: "ok", message: "Status page created." };
  });
  if (target) redirect(target);
  return result;
}

export async function updateStatusPageAction(_prev: FormState, formData: FormData): Promise<FormState> {
  const v = values(formData);
  return act(async () => {
    const ctx = await context(v);
    const pageId = Id.parse(str(v, "pageId"));
    await updateStatusPage(getStatusReadDeps(), ctx, { pageId, fields: v });
    refresh(ctx.organizationSlug, pageId);
    return { status: "ok", message: "Saved." };
  });
}

export async function deleteStatusPageAction(_prev: FormState, formData: FormData): Promise<FormState> {
  const v = values(formData);
  let target = "";
  const result = await act(async () => {
    const ctx = await context(v);
    await deleteStatusPage(getStatusReadDeps(), ctx, { pageId: Id.parse(str(v, "pageId")) });
    target = `/app/o/${ctx.organizationSlug}/status-pages`;
    return { status: "ok", message: "Deleted." };
  });
  if (target) redirect(target);
  return result;
}

export async function setDomainAction(_prev: FormState, formData: FormData): Promise<FormState> {
  const v = values(formData);
  return act(async () => {
    const ctx = await context(v);
    const pageId = Id.parse(str(v, "pageId"));
    const { domain } = await setCustomDomain(getStatusReadDeps(), ctx, { pageId, domain: str(v, "domain") });
    refresh(ctx.organizationSlug, pageId);
    return { status: "ok", message: domain ? "Domain saved; publish the TXT record, then verify." : "Domain removed." };
  });
}

export async function verifyDomainAction(_prev: FormState, formData: FormData): Promise<FormState> {
  const v = values(formData);
  return act(async () => {
    const ctx = await context(v);
    const pageId = Id.parse(str(v, "pageId"));
    const { verified } = await verifyCustomDomain(getStatusReadDeps(), ctx, { pageId });
    refresh(ctx.organizationSlug, pageId);
    return verified
      ? { status: "ok", message: "Domain verified: the page is served there now." }
      : { status: "error", message: "The TXT record was not found (DNS may take a while)." };
  });
}

export async function createGroupAction(_prev: FormState, formData: FormData): Promise<FormState> {
  const v = values(formData);
  return act(async () => {
    const ctx = await context(v);
    const pageId = Id.parse(str(v, "pageId"));
    await createStatusGroup(getStatusReadDeps(), ctx, { pageId, fields: v });
    refresh(ctx.organizationSlug, pageId);
    return { status: "ok", message: "Group added." };
  });
}

/** Rename a group, or move it one place (a hidden `move` of "up" or "down"). */
export async function updateGroupAction(_prev: FormState, formData: FormData): Promise<FormState> {
  const v = values(formData);
  return act(async () => {
    const ctx = await context(v);
    await updateStatusGroup(getStatusReadDeps(), ctx, { groupId: Id.parse(str(v, "groupId")), fields: v });
    refresh(ctx.organizationSlug, str(v, "pageId"));
    return { status: "ok", message: str(v, "move") ? "Moved." : "Renamed." };
  });
}

export async function deleteGroupAction(_prev: FormState, formData: FormData): Promise<FormState> {
  const v = values(formData);
  return act(async () => {
    const ctx = await context(v);
    await deleteStatusGroup(getStatusReadDeps(), ctx, { groupId: Id.parse(str(v, "groupId")) });
    refresh(ctx.organizationSlug, str(v, "pageId"));
    return { status: "ok", message: "Group removed." };
  });
}

export async function createComponentAction(_prev: FormState, formData: FormData): Promise<FormState> {
  const v = values(formData);
  return act(async () => {
    const ctx = await context(v);
    const pageId = Id.parse(str(v, "pageId"));
    await createStatusComponent(getStatusReadDeps(), ctx, { pageId, fields: v });
    refresh(ctx.organizationSlug, pageId);
    return { status: "ok", message: "Component added." };
  });
}

export async function updateComponentAction(_prev: FormState, formData: FormData): Promise<FormState> {
  const v = values(formData);
  return act(async () => {
    const ctx = await context(v);
    await updateStatusComponent(getStatusReadDeps(), ctx, { componentId: Id.parse(str(v, "componentId")), fields: v });
    refresh(ctx.organizationSlug, str(v, "pageId"));
    return { status: "ok", message: "Saved." };
  });
}

export async function deleteComponentAction(_prev: FormState, formData: FormData): Promise<FormState> {
  const v = values(formData);
  return act(async () => {
    const ctx = await context(v);
    await deleteStatusComponent(getStatusReadDeps(), ctx, { componentId: Id.parse(str(v, "componentId")) });
    refresh(ctx.organizationSlug, str(v, "pageId"));
    return { status: "ok", message: "Component removed." };
  });
}

export async function createIncidentAction(_prev: FormState, formData: FormData): Promise<FormState> {
  const v = values(formData);
  return act(async () => {
    const ctx = await context(v);
    const pageId = Id.parse(str(v, "pageId"));
    await createIncident(getStatusIncidentDeps(), ctx, { pageId, fields: v });
    refresh(ctx.organizationSlug, pageId);
    return { status: "ok", message: "Incident published." };
  });
}

export async function postIncidentUpdateAction(_prev: FormState, formData: FormData): Promise<FormState> {
  const v = values(formData);
  return act(async () => {
    const ctx = await context(v);
    const incidentId = Id.parse(str(v, "incidentId"));
    await createIncidentUpdate(getStatusIncidentDeps(), ctx, { incidentId, fields: v });
    refresh(ctx.organizationSlug, str(v, "pageId"));
    revalidatePath(`/app/o/${ctx.organizationSlug}/status-pages/${str(v, "pageId")}/incidents/${incidentId}`);
    return { status: "ok", message: "Update posted." };
  });
}

export async function updateIncidentAction(_prev: FormState, formData: FormData): Promise<FormState> {
  const v = values(formData);
  return act(async () => {
    const ctx = await context(v);
    await updateIncident(getStatusReadDeps(), ctx, { incidentId: Id.parse(str(v, "incidentId")), fields: v });
    refresh(ctx.organizationSlug, str(v, "pageId"));
    return { status: "ok", message: "Saved." };
  });
}

export async function deleteIncidentAction(_prev: FormState, formData: FormData): Promise<FormState> {
  const v = values(formData);
  let target = "";
  const result = await act(async () => {
    const ctx = await context(v);
    await deleteIncident(getStatusReadDeps(), ctx, { incidentId: Id.parse(str(v, "incidentId")) });
    target = `/app/o/${ctx.organizationSlug}/status-pages/${Id.parse(str(v, "pageId"))}`;
    return { status: "ok", message: "Deleted." };
  });
  if (target) redirect(target);
  return result;
}

export async function scheduleMaintenanceAction(_prev: FormState, formData: FormData): Promise<FormState> {
  const v = values(formData);
  return act(async () => {
    const ctx = await context(v);
    const pageId = Id.parse(str(v, "pageId"));
    await createMaintenance(getStatusReadDeps(), ctx, { pageId, fields: maintenanceFields(v) });
    refresh(ctx.organizationSlug, pageId);
    return { status: "ok", message: "Maintenance scheduled." };
  });
}

export async function updateMaintenanceAction(_prev: FormState, formData: FormData): Promise<FormState> {
  const v = values(formData);
  return act(async () => {
    const ctx = await context(v);
    const windowId = Id.parse(str(v, "windowId"));
    await updateMaintenance(getStatusReadDeps(), ctx, { windowId, fields: maintenanceFields(v) });
    refresh(ctx.organizationSlug, str(v, "pageId"));
    return { status: "ok", message: "Maintenance saved." };
  });
}

export async function cancelMaintenanceAction(_prev: FormState, formData: FormData): Promise<FormState> {
  const v = values(formData);
  return act(async () => {
    const ctx = await context(v);
    await deleteMaintenance(getStatusReadDeps(), ctx, { windowId: Id.parse(str(v, "windowId")) });
    refresh(ctx.organizationSlug, str(v, "pageId"));
    return { status: "ok", message: "Maintenance cancelled." };
  });
}

export async function deleteSubscriberAction(_prev: FormState, formData: FormData): Promise<FormState> {
  const v = values(formData);
  return act(async () => {
    const ctx = await context(v);
    await deleteSubscriber(getStatusReadDeps(), ctx, { subscriberId: Id.parse(str(v, "subscriberId")) });
    refresh(ctx.organizationSlug, str(v, "pageId"));
    return { status: "ok", message: "Subscriber removed." };
  });
}

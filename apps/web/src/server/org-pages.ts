import "server-only";
import { listUserOrganizations, type UserOrganization } from "@rpcpulse/services/orgs";
import { getRuntime } from "./runtime.js";

export async function getUserOrganizations(userId: string): Promise<UserOrganization[]> {
  return listUserOrganizations({ prisma: getRuntime().prisma }, { userId });
}

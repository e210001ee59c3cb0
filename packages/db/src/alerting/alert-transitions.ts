import type { PrismaClient } from "../sql/client.js";
import {
  insertAlertEvent,
  saveAlertState,
  type AlertEventInsert,
  type AlertEventRow,
  type AlertStateRow,
} from "./alert-states.js";
import { insertDelivery, type DeliveryInsert, type DeliveryRow } from "./deliveries.js";

/**
 * One alert transition in one transaction: the rule × target's new state, its event, and one delivery
 * row per channel (the outbox: the rows commit with the event, the notify jobs are queued after).
 * `deliveriesFor` builds the delivery rows once the event's id is known (their payload links to it).
 */
export async function saveAlertTransition(
  prisma: PrismaClient,
  input: {
    state: AlertStateRow;
    event: AlertEventInsert;
    deliveriesFor: (event: AlertEventRow) => DeliveryInsert[];
  },
): Promise<{ event: AlertEventRow; deliveries: DeliveryRow[] }> {
  return prisma.$transaction(async (tx) => {
    await saveAlertState(tx, input.state);
    const event = await insertAlertEvent(tx, input.event);
    const deliveries: DeliveryRow[] = [];
    for (const delivery of input.deliveriesFor(event)) deliveries.push(await insertDelivery(tx, delivery));
    return { event, deliveries };
  });
}

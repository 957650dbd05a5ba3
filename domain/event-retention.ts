/** How long events are kept and listed (Stripe's 30 days): the expiry deletes older ones. */
export const EVENT_RETENTION_DAYS = 30;

export const keptSince = (now: Date): Date => new Date(now.getTime() - EVENT_RETENTION_DAYS * 86_400_000);

import { registry } from '../../platform/telemetry/registry';

interface Sample { labels: Record<string, string | number>; value: number; metricName?: string }

async function samples(name: string): Promise<Sample[]> {
  const metric = registry.getSingleMetric(name);
  return metric ? ((await metric.get()).values as Sample[]) : [];
}

/** Requests, 4xx, 5xx and mean duration per route, from this api process's histogram since it started. */
async function routes() {
  const byRoute = new Map<string, { method: string; route: string; requests: number; client_errors: number; server_errors: number; seconds: number }>();
  for (const sample of await samples('http_server_request_duration_seconds')) {
    const counted = sample.metricName?.endsWith('_count');
    if (!counted && !sample.metricName?.endsWith('_sum')) continue;
    const method = String(sample.labels.http_request_method);
    const route = String(sample.labels.http_route);
    const key = `${method} ${route}`;
    const entry = byRoute.get(key) ?? { method, route, requests: 0, client_errors: 0, server_errors: 0, seconds: 0 };
    if (counted) {
      const status = String(sample.labels.http_response_status_code);
      entry.requests += sample.value;
      if (status.startsWith('4')) entry.client_errors += sample.value;
      if (status.startsWith('5')) entry.server_errors += sample.value;
    } else entry.seconds += sample.value;
    byRoute.set(key, entry);
  }
  return [...byRoute.values()]
    .map(({ seconds, ...entry }) => ({ ...entry, mean_ms: entry.requests ? Math.round((seconds / entry.requests) * 10_000) / 10 : 0 }))
    .sort((a, b) => b.requests - a.requests || a.route.localeCompare(b.route));
}

const single = async (name: string): Promise<number | null> => (await samples(name))[0]?.value ?? null;

/**
 * What the console's System page shows: the api's own metrics, read from this process's registry
 * (the figures from Postgres are the same in every api process; request counts are this process's).
 */
export async function systemFigures(startedAt: Date) {
  const [perRoute, counts, oldest, outboxPending, retrying, databaseUp] = await Promise.all([
    routes(), samples('receivables_operations'), samples('receivables_operation_oldest_in_state_seconds'),
    single('receivables_outbox_pending'), single('receivables_webhook_deliveries_retrying'), single('receivables_database_up'),
  ]);
  const ages = new Map(oldest.map((s) => [s.labels.lifecycle_status, s.value]));
  return {
    process_started_at: startedAt.toISOString(),
    database_up: databaseUp === 1,
    routes: perRoute,
    operations: counts.map((s) => ({ lifecycle_status: String(s.labels.lifecycle_status), count: s.value, oldest_seconds: Math.round(ages.get(s.labels.lifecycle_status) ?? 0) })),
    outbox_pending: outboxPending,
    webhook_deliveries_retrying: retrying,
  };
}

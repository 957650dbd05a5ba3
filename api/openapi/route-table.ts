/** `health`: counted in each process's memory, never in Postgres, so health answers whatever Postgres does. */
export type RateLimitClass = 'default' | 'exempt' | 'login' | 'auth_token' | 'callback' | 'health';
export type SecurityRequirement = Record<string, string[]>;

export interface RouteSpec {
  method: string;
  pathTemplate: string;
  operationId: string;
  /** Alternatives: the caller must satisfy one of them. Empty means public. */
  security: SecurityRequirement[];
  rateLimit: RateLimitClass;
  idempotencyKey: 'required' | 'optional';
}

interface Entry {
  /** Built once and handed to every request of the route (read-only). */
  spec: RouteSpec;
  method: string;
  pattern: RegExp;
  literalSegments: number;
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

function compile(template: string): { pattern: RegExp; literalSegments: number } {
  const segments = template.split('/').filter(Boolean);
  const source = segments
    .map((segment) => (segment.startsWith('{') ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return { pattern: new RegExp(`^/${source}/?$`), literalSegments: segments.filter((s) => !s.startsWith('{')).length };
}

/** Which documented operation a request addresses, read from the OpenAPI document itself. */
export class RouteTable {
  private readonly entries: Entry[] = [];
  /** Each template's entries, in document order. */
  private readonly byTemplate = new Map<string, Entry[]>();
  /**
   * The templates without a parameter, by their path: a path equal to one (give or take the
   * trailing slash the pattern allows) matches no template more literal than it, so it is found
   * without testing every pattern before it (6 µs of a simulation's CPU).
   */
  private readonly literal = new Map<string, string>();

  constructor(document: { paths: Record<string, Record<string, Record<string, unknown>>> }) {
    for (const [pathTemplate, item] of Object.entries(document.paths)) {
      const { pattern, literalSegments } = compile(pathTemplate);
      for (const method of METHODS) {
        const op = item[method];
        if (!op) continue;
        const parameters = (op.parameters as { $ref?: string }[] | undefined) ?? [];
        const spec: RouteSpec = {
          method: method.toUpperCase(),
          pathTemplate,
          operationId: String(op.operationId),
          security: (op.security as SecurityRequirement[] | undefined) ?? [],
          rateLimit: (op['x-rate-limit'] as RateLimitClass | undefined) ?? 'default',
          idempotencyKey: parameters.some((p) => p.$ref?.endsWith('/IdempotencyKeyRequired')) ? 'required' : 'optional',
        };
        const entry = { spec, method: spec.method, pattern, literalSegments };
        this.entries.push(entry);
        this.byTemplate.set(pathTemplate, [...(this.byTemplate.get(pathTemplate) ?? []), entry]);
      }
      const segments = pathTemplate.split('/').filter(Boolean);
      const path = `/${segments.join('/')}`;
      // The first of two templates for one path wins, as in the scan.
      if (this.byTemplate.has(pathTemplate) && !segments.some((s) => s.startsWith('{')) && !this.literal.has(path)) this.literal.set(path, pathTemplate);
    }
    // A literal segment beats a template one (`/v1/stock/simulate-anticipation` before `/v1/stock/{id}`).
    this.entries.sort((a, b) => b.literalSegments - a.literalSegments);
  }

  /**
   * The operation a request addresses. The path is matched first, the most literal template
   * winning, and only then the method: `GET /v1/operations/direct` names the path
   * `/v1/operations/direct` with a method it does not have (`allowed` lists the ones it has), never
   * `GET /v1/operations/{id}`. Null when no documented path matches.
   */
  match(method: string, path: string): RouteSpec | { allowed: string[] } | null {
    const template = this.literal.get(path.endsWith('/') ? path.slice(0, -1) : path)
      ?? this.entries.find((e) => e.pattern.test(path))?.spec.pathTemplate;
    if (template === undefined) return null;
    const sameTemplate = this.byTemplate.get(template)!;
    const entry = sameTemplate.find((e) => e.method === method);
    return entry ? entry.spec : { allowed: sameTemplate.map((e) => e.method) };
  }
}

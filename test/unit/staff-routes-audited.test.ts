import { expect } from 'chai';
import { buildDocument } from '../../api/document/document';
import { STAFF_ACTIONS, STAFF_ROUTES_CHANGING_NOTHING } from '../../api/audit/refusals';

type Operation = { security?: Record<string, string[]>[]; requestBody?: { content: Record<string, { schema: Record<string, unknown> }> } };

/** Routes only a staff user can call: every security alternative is a user session (sandbox routes included: the dev document has them all). */
const document = buildDocument('http://localhost:8000', 'dev') as unknown as {
  paths: Record<string, Record<string, Operation>>; components: { schemas: Record<string, Record<string, unknown>> };
};
const resolved = (schema: Record<string, unknown>) => (typeof schema.$ref === 'string' ? document.components.schemas[schema.$ref.split('/').pop()!] : schema);

function staffRoutesChangingState(): Map<string, Operation> {
  const routes = new Map<string, Operation>();
  for (const [template, item] of Object.entries(document.paths)) {
    for (const method of ['post', 'put', 'patch', 'delete']) {
      const security = item[method]?.security;
      if (security?.length && security.every((alternative) => Object.keys(alternative).every((scheme) => scheme === 'userSession'))) {
        routes.set(`${method.toUpperCase()} ${template}`, item[method]);
      }
    }
  }
  return routes;
}

describe('every staff-only route that changes state has an audit action', () => {
  const routes = staffRoutesChangingState();

  it('finds the staff routes in the document (the walk is not empty)', () => {
    expect([...routes.keys()]).to.include.members(['POST /v1/backoffice/operations/{id}/approve', 'PATCH /v1/backoffice/users/{id}']);
  });

  it('names an audit action for each, or says why it changes nothing', () => {
    const unaudited = [...routes.keys()].filter((route) => !STAFF_ACTIONS[route] && !STAFF_ROUTES_CHANGING_NOTHING[route]);
    expect(unaudited, 'staff-only routes that change state with no audit action (api/audit/refusals.ts)').to.deep.equal([]);
  });

  it('lists no route the document does not have, and none both audited and changing nothing', () => {
    const listed = [...Object.keys(STAFF_ACTIONS), ...Object.keys(STAFF_ROUTES_CHANGING_NOTHING)];
    expect(listed.filter((route) => !routes.has(route))).to.deep.equal([]);
    expect(Object.keys(STAFF_ACTIONS).filter((route) => STAFF_ROUTES_CHANGING_NOTHING[route])).to.deep.equal([]);
  });

  it('refuses fields of their own in every audited staff body that is read, so nothing rides into the record', () => {
    const read = (op: Operation) => op.requestBody && 'properties' in resolved(op.requestBody.content['application/json'].schema);
    const open = [...routes].filter(([route, op]) => STAFF_ACTIONS[route] && read(op))
      .filter(([, op]) => resolved(op.requestBody!.content['application/json'].schema).additionalProperties !== false)
      .map(([route]) => route);
    expect(open).to.deep.equal([]);
  });
});

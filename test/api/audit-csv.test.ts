import { expect } from 'chai';
import { buildUser, loginAs } from '../support/factories';
import { ApiClient } from '../support/http';
import { sharedApi } from '../support/stack';

/** The fields of one CSV line (RFC 4180), each of which must be quoted: what a spreadsheet would put in each cell. */
function quotedFields(line: string): string[] {
  const fields: string[] = [];
  let at = 0;
  while (at < line.length) {
    expect(line[at], `every field quoted: ${line}`).to.equal('"');
    let field = '';
    for (at += 1; ; at += 1) {
      if (line[at] === '"' && line[at + 1] === '"') { field += '"'; at += 1; } else if (line[at] === '"') break; else field += line[at];
    }
    fields.push(field);
    at += 2;
  }
  return fields;
}

/** The audit trail's CSV export is safe to open in a spreadsheet and pages with every filter kept. */
describe('audit trail CSV: formula injection and paging', () => {
  let client: ApiClient;
  let admin: string;
  before(async () => {
    client = new ApiClient((await sharedApi()).url);
    admin = await loginAs(client, await buildUser({ roles: ['admin'] }));
  });

  it('quotes every field and prefixes one that starts a formula, or starts one after a ; or , (an anonymous failed login\'s User-Agent)', async () => {
    const since = new Date(Date.now() - 1000).toISOString();
    const agents = ['Mozilla;=HYPERLINK("http://evil.example","x")', '@SUM(1+1)', 'agent,+1', 'plain agent', 'a;b'];
    for (const agent of agents) {
      const refused = await client.post('/v1/auth/login', { email: 'nobody-csv@example.com', password: 'wrong-password' }, { headers: { 'User-Agent': agent } });
      expect(refused.status).to.equal(401);
    }
    const csv = await client.get(`/v1/backoffice/audit-events.csv?action=auth.login_failed&created[gte]=${encodeURIComponent(since)}`, { token: admin });
    expect(csv.status, csv.text).to.equal(200);
    const rows = csv.text.trim().split('\r\n').slice(1).map(quotedFields);
    const userAgents = rows.map((fields) => fields[8]).reverse();
    expect(userAgents).to.deep.equal([`'${agents[0]}`, `'${agents[1]}`, `'${agents[2]}`, 'plain agent', 'a;b']);
    for (const fields of rows) expect(fields).to.have.length(15);
  });

  it('keeps every filter, the created window included, in the Link to the next page', async () => {
    const since = new Date().toISOString();
    for (let n = 0; n < 3; n += 1) await client.post('/v1/auth/login', { email: `paging-${n}@example.com`, password: 'wrong-password' });
    const first = await client.get(`/v1/backoffice/audit-events.csv?action=auth.login_failed&limit=2&created[gte]=${encodeURIComponent(since)}`, { token: admin });
    expect(first.status, first.text).to.equal(200);
    const link = /^<([^>]+)>; rel="next"$/.exec(first.headers.get('link') ?? '');
    expect(link, first.headers.get('link') ?? 'no Link').to.not.equal(null);
    const next = new URL(link![1], client.baseUrl);
    expect(Object.fromEntries(next.searchParams)).to.include({ action: 'auth.login_failed', limit: '2', 'created[gte]': since });
    const second = await client.get(`${next.pathname}${next.search}`, { token: admin });
    expect(second.status, second.text).to.equal(200);
    const emails = (text: string) => text.trim().split('\r\n').slice(1).map((line) => quotedFields(line)[3]);
    expect([...emails(first.text), ...emails(second.text)]).to.deep.equal(['paging-2@example.com', 'paging-1@example.com', 'paging-0@example.com']);
  });
});

import { expect } from 'chai';
import type { StaffRole } from '../../domain/staff-roles';
import { buildUser, loginAs } from './factories';
import type { ApiClient } from './http';
import { sharedSandbox } from './stack';

export interface MailboxMessage {
  subject: string;
  text: string;
  enrolment_token: string | null;
}

/** The e-mails the api sent to `email`, newest first, as the sandbox's mailbox shows them to the invitee. */
export async function mailbox(email: string): Promise<MailboxMessage[]> {
  const res = await fetch(`${(await sharedSandbox()).mailUrl}/mailbox?to=${encodeURIComponent(email)}`);
  expect(res.status).to.equal(200);
  return ((await res.json()) as { messages: MailboxMessage[] }).messages;
}

/** The enrolment token of the newest invitation e-mailed to `email`. */
export async function enrolmentTokenOf(email: string): Promise<string> {
  const [newest] = await mailbox(email);
  expect(newest?.enrolment_token, `an invitation e-mail to ${email}`).to.be.a('string');
  return newest.enrolment_token!;
}

/** Another admin, made in SQL and signed in: the second admin a grant of approver or admin needs. */
export async function secondAdmin(client: ApiClient): Promise<{ id: string; email: string; token: string }> {
  const user = await buildUser({ roles: ['admin'] });
  return { id: user.id, email: user.email, token: await loginAs(client, user) };
}

/**
 * Invites a staff member as `adminToken`'s admin; a grant of approver or admin (202) is confirmed
 * by a second admin, as the two-admin rule wants. Answers the account's id and the enrolment token
 * read from the invitee's mailbox.
 */
export async function inviteStaff(client: ApiClient, adminToken: string, invitee: { email: string; name?: string; roles: StaffRole[] }) {
  const invited = await client.post('/v1/backoffice/users', { email: invitee.email, name: invitee.name ?? 'Test Staff', roles: invitee.roles }, { token: adminToken });
  expect(invited.status, invited.text).to.be.oneOf([201, 202]);
  expect(invited.body).not.to.have.property('enrolment_token');
  if (invited.status === 202) {
    const confirmed = await client.post(`/v1/backoffice/role-grants/${invited.body.pending_grant.id}/confirm`, undefined, { token: (await secondAdmin(client)).token });
    expect(confirmed.status, confirmed.text).to.equal(200);
  }
  return { id: invited.body.id as string, email: invitee.email, enrolmentToken: await enrolmentTokenOf(invitee.email) };
}

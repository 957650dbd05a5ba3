import { randomUUID } from 'node:crypto';
import { Router } from 'express';
import { asBody, optionalText, requiredText } from '../http';

export interface StaffMail {
  id: string;
  to: string;
  subject: string;
  text: string;
  enrolmentToken: string | null;
  sentAt: string;
}

/**
 * The mail relay of dev and sandbox: the api's staff e-mail (enrolment tokens) lands here instead
 * of in someone's inbox, and `GET /mail/mailbox?to=` reads it as the invitee would.
 */
export class MailBook {
  mails: StaffMail[] = [];

  snapshot(): StaffMail[] {
    return this.mails;
  }

  restore(mails: StaffMail[] | undefined): void {
    this.mails = mails ?? [];
  }
}

export function mailRoutes(book: MailBook): Router {
  const router = Router();
  router.post('/messages', (req, res) => {
    const body = asBody(req.body);
    const mail: StaffMail = {
      id: randomUUID(), to: requiredText(body, 'to'), subject: requiredText(body, 'subject'), text: requiredText(body, 'text'),
      enrolmentToken: optionalText(body, 'enrolment_token'), sentAt: new Date().toISOString(),
    };
    book.mails.push(mail);
    res.status(201).json({ id: mail.id });
  });

  router.get('/mailbox', (req, res) => {
    const to = typeof req.query.to === 'string' ? req.query.to.toLowerCase() : null;
    const messages = book.mails.filter((m) => to === null || m.to.toLowerCase() === to).reverse()
      .map((m) => ({ id: m.id, to: m.to, subject: m.subject, text: m.text, enrolment_token: m.enrolmentToken, sent_at: m.sentAt }));
    res.json({ messages });
  });
  return router;
}

import { createTransport } from 'nodemailer';
import { ProviderHttp } from './provider-http';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  /** The enrolment token the text carries: the sandbox's mailbox shows it apart, so a test enrols as the invitee would. */
  enrolmentToken?: string;
}

/** Where staff e-mail leaves: an SMTP relay in production, the sandbox's mailbox elsewhere. */
export interface MailSender {
  send(message: MailMessage): Promise<void>;
}

export class MailFailed extends Error {}

export interface MailSettings {
  /** `smtp://user:password@host:587` or `smtps://…`; null: the sandbox's mailbox. */
  smtpUrl: string | null;
  from: string;
  sandboxUrl: string;
}

class SmtpMailSender implements MailSender {
  private readonly transport;

  constructor(url: string, private readonly from: string) {
    this.transport = createTransport(url);
  }

  async send(message: MailMessage): Promise<void> {
    try {
      await this.transport.sendMail({ from: this.from, to: message.to, subject: message.subject, text: message.text });
    } catch (err) {
      throw new MailFailed(`SMTP relay refused or unreachable: ${(err as Error).message}`);
    }
  }
}

class SandboxMailSender implements MailSender {
  private readonly http: ProviderHttp;

  constructor(url: string, timeoutMs: number) {
    this.http = new ProviderHttp(url, timeoutMs);
  }

  async send(message: MailMessage): Promise<void> {
    await this.http.call(
      { method: 'POST', path: '/messages', body: { to: message.to, subject: message.subject, text: message.text, enrolment_token: message.enrolmentToken ?? null } },
      () => undefined, (why) => new MailFailed(`sandbox mailbox: ${why}`),
    );
  }
}

export function mailSender(settings: MailSettings, timeoutMs: number): MailSender {
  return settings.smtpUrl ? new SmtpMailSender(settings.smtpUrl, settings.from) : new SandboxMailSender(settings.sandboxUrl, timeoutMs);
}

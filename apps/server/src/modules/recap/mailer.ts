import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Config } from '../../config.js';

export interface OutgoingMail {
  /** Without angle brackets: `recap-…@host`. A resend carries the same one (receivers collapse duplicates). */
  messageId: string;
  to: string[];
  subject: string;
  html: string;
  text: string;
  headers: Record<string, string>;
  /**
   * What the outbox file holds instead of the body, when the body must not be stored in clear (a recap
   * of an encrypted meeting); an SMTP send ignores it.
   */
  outboxBody?: { html: string; text: string };
}

export interface SendResult {
  accepted: string[];
  rejected: string[];
  /** The .eml file written, for the outbox transport. */
  file?: string;
}

/** A send that failed; `permanent` ones (5xx) are not retried. */
export class MailError extends Error {
  constructor(
    message: string,
    readonly permanent: boolean,
  ) {
    super(message);
  }
}

export interface Mailer {
  kind: 'smtp' | 'outbox';
  send(mail: OutgoingMail): Promise<SendResult>;
}

/** Bounds of one SMTP conversation: a hung server makes the attempt fail (and retry), not the job hang. */
const SMTP_TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 20_000 };

export function outboxDir(config: Pick<Config, 'DATA_DIR'>): string {
  return join(config.DATA_DIR, 'outbox');
}

/** The outbox file of a message: named after its Message-ID, so a resend replaces it. */
function outboxFile(config: Pick<Config, 'DATA_DIR'>, messageId: string): string {
  return join(outboxDir(config), `${messageId.replace(/[^\w.-]/g, '_')}.eml`);
}

/** Removes the outbox files of these messages (and a half-written one of each); answers how many existed. */
export async function removeOutboxFiles(config: Pick<Config, 'DATA_DIR'>, messageIds: string[]): Promise<number> {
  let removed = 0;
  for (const messageId of messageIds) {
    const file = outboxFile(config, messageId);
    const existed = await rm(file).then(
      () => true,
      (error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') return false;
        throw error;
      },
    );
    await rm(`${file}.tmp`, { force: true });
    if (existed) removed++;
  }
  return removed;
}

function message(config: Config, mail: OutgoingMail) {
  return {
    from: config.MAIL_FROM,
    to: mail.to,
    subject: mail.subject,
    html: mail.html,
    text: mail.text,
    messageId: `<${mail.messageId}>`,
    headers: mail.headers,
  };
}

/**
 * 4xx replies are temporary, 5xx permanent (RFC 5321 §4.2.1); a connection that fails or drops gets
 * no reply code and is temporary too.
 */
export function toMailError(error: unknown): MailError {
  const err = error as { responseCode?: unknown; response?: unknown; message?: unknown; code?: unknown };
  const code = typeof err.responseCode === 'number' ? err.responseCode : null;
  const detail = typeof err.response === 'string' && err.response ? err.response : String(err.message ?? error);
  if (code !== null && code >= 500) return new MailError(`Refused by the mail server: ${detail}`, true);
  if (code !== null && code >= 400) return new MailError(`Mail server asked to try later: ${detail}`, false);
  const reason = typeof err.code === 'string' ? `${err.code}: ${String(err.message ?? '')}` : String(err.message ?? error);
  return new MailError(`Could not reach the mail server (${reason})`, false);
}

/** nodemailer, loaded with the first message sent rather than at start-up. */
async function nodemailer() {
  return (await import('nodemailer')).default;
}

function smtpMailer(config: Config, url: string): Mailer {
  const transport = nodemailer().then((mailer) => mailer.createTransport({ url, ...SMTP_TIMEOUTS }));
  return {
    kind: 'smtp',
    async send(mail) {
      try {
        const info = await (await transport).sendMail(message(config, mail));
        const list = (value: unknown) => (Array.isArray(value) ? value.map((a) => (typeof a === 'string' ? a : String((a as { address?: string }).address ?? a))) : []);
        return { accepted: list(info.accepted), rejected: list(info.rejected) };
      } catch (error) {
        throw toMailError(error);
      }
    },
  };
}

/**
 * Without SMTP_URL the message is written as an .eml file (RFC 822, openable in any mail program) to
 * DATA_DIR/outbox, named after its Message-ID, so a resend replaces the file instead of adding one.
 */
function outboxMailer(config: Config): Mailer {
  const transport = nodemailer().then((mailer) => mailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' }));
  const dir = outboxDir(config);
  return {
    kind: 'outbox',
    async send(mail) {
      const info = await (await transport).sendMail(message(config, { ...mail, ...mail.outboxBody }));
      await mkdir(dir, { recursive: true });
      const file = outboxFile(config, mail.messageId);
      const temporary = `${file}.tmp`;
      await writeFile(temporary, info.message as Buffer);
      await rename(temporary, file);
      return { accepted: mail.to, rejected: [], file };
    },
  };
}

export function createMailer(config: Config): Mailer {
  return config.SMTP_URL ? smtpMailer(config, config.SMTP_URL) : outboxMailer(config);
}

const mailers = new WeakMap<Config, Mailer>();

/** One mailer per configuration (its SMTP connection pool or outbox folder). */
export function mailerFor(deps: { config: Config }): Mailer {
  let mailer = mailers.get(deps.config);
  if (!mailer) {
    mailer = createMailer(deps.config);
    mailers.set(deps.config, mailer);
  }
  return mailer;
}

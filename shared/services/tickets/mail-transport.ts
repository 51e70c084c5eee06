import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { config } from '../../config';
import { sendRawMail } from '../../repositories/mail-ses';

/**
 * Where a rendered mail goes: the local outbox (one `.eml` file per mail, named by the outbox item, so
 * sending one again rewrites the same file) or, deployed, Amazon SES. `send` resolves with the
 * transport's message ID and throws when the mail did not leave (the sender retries it).
 */
export interface MailTransport {
  send(raw: string, o: { to: string; name: string }): Promise<string>;
}

export function outboxTransport(dir = config.outboxDir): MailTransport {
  return {
    async send(raw, o) {
      await mkdir(dir, { recursive: true });
      const file = join(dir, `${o.name}.eml`);
      // Written aside, then renamed: a reader of the outbox never sees half a mail.
      await writeFile(`${file}.tmp`, raw);
      await rename(`${file}.tmp`, file);
      return o.name;
    },
  };
}

/** Amazon SES (v2) when deployed (shared/repositories/mail-ses.ts). */
export const sesTransport = (): MailTransport => ({ send: (raw) => sendRawMail(raw) });

/** The configured transport: the local outbox, or SES when deployed. */
export function configuredTransport(): MailTransport {
  return config.mailTransport === 'outbox' ? outboxTransport() : sesTransport();
}

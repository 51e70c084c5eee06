import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { config } from '../../config';

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

/**
 * The configured transport. `ses` needs the SES v2 client (@aws-sdk/client-sesv2), which this
 * checkout does not have installed yet (docs/tickets.md): until it is, sending with it fails and the
 * outbox keeps every mail pending for the retries.
 */
export function configuredTransport(): MailTransport {
  if (config.mailTransport === 'outbox') return outboxTransport();
  return {
    send: () => Promise.reject(new Error('The SES transport needs @aws-sdk/client-sesv2, not installed.')),
  };
}

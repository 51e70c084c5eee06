/**
 * An e-mail as RFC 5322 / MIME text (multipart/mixed: a text part, an optional HTML part, attachments),
 * the form both the local outbox (`.eml` files) and Amazon SES's raw sending take. Pure: no clock, no I/O.
 */

export interface MailAttachment {
  filename: string;
  contentType: string;
  content: string | Uint8Array;
}

export interface MailMessage {
  from: string;
  to: string;
  subject: string;
  text: string;
  html?: string;
  attachments?: MailAttachment[];
  /** Message-ID without the angle brackets; the same message sent again keeps it. */
  messageId: string;
  date: Date;
}

const CRLF = '\r\n';

/** A header value outside ASCII as an RFC 2047 encoded word (UTF-8, base64). */
export const headerText = (value: string): string =>
  /^[\x20-\x7e]*$/.test(value) ? value : `=?UTF-8?B?${Buffer.from(value, 'utf8').toString('base64')}?=`;

/** Base64 in lines of 76 characters (RFC 2045). */
const base64Lines = (content: string | Uint8Array): string =>
  (
    Buffer.from(content)
      .toString('base64')
      .match(/.{1,76}/g) ?? []
  ).join(CRLF);

/** A display name and address, the name quoted (or encoded) as a header needs it. */
export function mailbox(name: string, address: string): string {
  const clean = name.replace(/["\\\r\n]/g, '').trim();
  return clean ? `${headerText(`"${clean}"`)} <${address}>` : address;
}

function part(contentType: string, content: string | Uint8Array, filename?: string): string {
  const headers = [`Content-Type: ${contentType}`, 'Content-Transfer-Encoding: base64'];
  if (filename) headers.push(`Content-Disposition: attachment; filename="${filename.replace(/"/g, '')}"`);
  return `${headers.join(CRLF)}${CRLF}${CRLF}${base64Lines(content)}`;
}

/** The whole message, CRLF line ends, boundaries derived from the Message-ID (same input, same text). */
export function renderMail(m: MailMessage): string {
  const boundary = `=_mixed_${m.messageId.replace(/[^A-Za-z0-9]/g, '')}`;
  const alternative = `=_alt_${m.messageId.replace(/[^A-Za-z0-9]/g, '')}`;
  const body = m.html
    ? [
        `Content-Type: multipart/alternative; boundary="${alternative}"`,
        '',
        `--${alternative}`,
        part('text/plain; charset=UTF-8', m.text),
        `--${alternative}`,
        part('text/html; charset=UTF-8', m.html),
        `--${alternative}--`,
      ].join(CRLF)
    : part('text/plain; charset=UTF-8', m.text);
  const parts = [body, ...(m.attachments ?? []).map((a) => part(a.contentType, a.content, a.filename))];
  return [
    `From: ${m.from}`,
    `To: ${m.to}`,
    `Subject: ${headerText(m.subject)}`,
    `Date: ${m.date.toUTCString().replace('GMT', '+0000')}`,
    `Message-ID: <${m.messageId}>`,
    'MIME-Version: 1.0',
    `Content-Type: multipart/mixed; boundary="${boundary}"`,
    '',
    ...parts.flatMap((p) => [`--${boundary}`, p]),
    `--${boundary}--`,
    '',
  ].join(CRLF);
}

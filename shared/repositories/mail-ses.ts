/**
 * Amazon SES (v2), where attendees' e-mails leave when deployed (docs/tickets.md): the rendered message
 * sent as it is, its From the `mailFrom` identity. Resolves with SES's message ID; throws when SES
 * refused it (an unverified address, throttling), which the sender retries.
 */
export async function sendRawMail(raw: string): Promise<string> {
  const { SESv2Client, SendEmailCommand } = await import('@aws-sdk/client-sesv2');
  const sent = await new SESv2Client({}).send(
    new SendEmailCommand({ Content: { Raw: { Data: Buffer.from(raw, 'utf8') } } }),
  );
  if (!sent.MessageId) throw new Error('SES answered without a message ID.');
  return sent.MessageId;
}

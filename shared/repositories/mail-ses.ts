/**
 * Amazon SES (v2), where attendees' e-mails leave when deployed (docs/tickets.md): the rendered message
 * sent as it is, its From the `mailFrom` identity. Resolves with SES's message ID; throws when SES
 * refused it (an unverified address, throttling), which the sender retries.
 */
let client: import('@aws-sdk/client-sesv2').SESv2Client | undefined;

export async function sendRawMail(raw: string): Promise<string> {
  const { SESv2Client, SendEmailCommand } = await import('@aws-sdk/client-sesv2');
  // One client for the function's life, made on the first mail: a run sends up to fifty.
  client ??= new SESv2Client({});
  const sent = await client.send(
    new SendEmailCommand({ Content: { Raw: { Data: Buffer.from(raw, 'utf8') } } }),
  );
  if (!sent.MessageId) throw new Error('SES answered without a message ID.');
  return sent.MessageId;
}

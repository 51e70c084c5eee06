import { createHash } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A stand-in for SQS's SendMessage for bundles loaded from the cloud assembly, whose own copy of the
 * SDK no client mock reaches: the SQS client sends to its queue URL's host, so a queue URL on this
 * server lands here. Keeps every message; answers with the body's MD5, which the client checks.
 */
export interface FakeSqs {
  queueUrl: string;
  sent: Array<{ MessageBody: string; DelaySeconds?: number }>;
  close: () => Promise<void>;
}

export async function startFakeSqs(): Promise<FakeSqs> {
  const sent: FakeSqs['sent'] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const action = String(req.headers['x-amz-target'] ?? '');
      if (action !== 'AmazonSQS.SendMessage') {
        res.writeHead(400, { 'content-type': 'application/x-amz-json-1.0' });
        res.end(JSON.stringify({ __type: 'com.amazonaws.sqs#UnsupportedOperation', message: action }));
        return;
      }
      const input = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      sent.push(input);
      res.writeHead(200, { 'content-type': 'application/x-amz-json-1.0' });
      res.end(
        JSON.stringify({
          MessageId: `fake-${sent.length}`,
          MD5OfMessageBody: createHash('md5').update(input.MessageBody).digest('hex'),
        }),
      );
    });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address() as AddressInfo;
  return {
    queueUrl: `http://127.0.0.1:${port}/000000000000/deliveries`,
    sent,
    close: () => new Promise<void>((ok) => server.close(() => ok())),
  };
}

import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { useStack } from '../support/use-stack';

/**
 * The local gateway and requests too large to route: a URL over 16 KB is a 414 `rest_url_too_long`
 * envelope, headers too large overall a 431 envelope, never Node's bare 431 without a body or a reset
 * connection; and the gateway keeps serving afterwards.
 */
const { api } = await useStack();

const pad = (bytes: number) => 'x'.repeat(bytes);

/** One raw HTTP/1.1 exchange on a fresh connection, read until the server closes it (bounded in time). */
function exchange(
  port: number,
  request: string,
): Promise<{ status: number; headers: string; body: string; text: string }> {
  return new Promise((ok, fail) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      fail(new Error('no complete answer within 10 s'));
    }, 10_000);
    socket.on('data', (d) => chunks.push(d));
    socket.on('error', (e) => {
      clearTimeout(timer);
      fail(e);
    });
    socket.on('close', () => {
      clearTimeout(timer);
      const text = Buffer.concat(chunks).toString('utf8');
      const end = text.indexOf('\r\n\r\n');
      const head = end < 0 ? text : text.slice(0, end);
      const body = end < 0 ? '' : text.slice(end + 4);
      ok({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0), headers: head, body, text });
    });
    socket.write(request); // not end(): a half-closed connection may drop answers still in flight
  });
}

const portOf = () => Number(new URL(api.origin).port);

function expectEnvelope(
  reply: { status: number; body: unknown; contentType: string | null; version: string | null },
  status: number,
  code: string,
) {
  expect(reply.status).toBe(status);
  expect(reply.body).toEqual({ code, message: expect.any(String), data: { status } });
  expect((reply.body as { message: string }).message).not.toMatch(/HPE_|Parse Error|Error|\n/);
  expect(reply.contentType).toMatch(/^application\/json/);
  expect(reply.version).toBe('v1');
}

describe('long URLs', () => {
  it('serves a URL of 15 KB as usual', async () => {
    const res = await api.get(`/categories?hide_empty=false&pad=${pad(15 * 1024)}`);

    expect(res.status).toBe(200);
  });

  it.each([
    ['20 KB', 20 * 1024],
    ['70 KB', 70 * 1024],
    ['200 KB', 200 * 1024],
  ])('answers a query string of %s with a 414 rest_url_too_long envelope', async (_name, bytes) => {
    const res = await fetch(`${api.base}/events?search=${pad(bytes)}`);

    const text = await res.text();
    expectEnvelope(
      {
        status: res.status,
        body: JSON.parse(text),
        contentType: res.headers.get('content-type'),
        version: res.headers.get('x-cal-api-version'),
      },
      414,
      'rest_url_too_long',
    );
  });

  it('answers a 70 KB path the same way', async () => {
    const res = await fetch(`${api.base}/events/by-slug/${pad(70 * 1024)}`);

    expect(res.status).toBe(414);
    expect(((await res.json()) as { code: string }).code).toBe('rest_url_too_long');
  });

  it('answers a raw 70 KB request line with the envelope, then closes the connection cleanly', async () => {
    const reply = await exchange(
      portOf(),
      `GET /cal/events/v1/events?search=${pad(70 * 1024)} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`,
    );

    expectEnvelope(
      {
        status: reply.status,
        body: JSON.parse(reply.body),
        contentType: /^content-type: (.+)$/im.exec(reply.headers)?.[1] ?? null,
        version: /^x-cal-api-version: (.+)$/im.exec(reply.headers)?.[1] ?? null,
      },
      414,
      'rest_url_too_long',
    );
  });

  it('answers a long request line pipelined after a normal request after that request’s answer', async () => {
    const reply = await exchange(
      portOf(),
      'GET /cal/events/v1/categories HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n' +
        `GET /cal/events/v1/events?search=${pad(70 * 1024)} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`,
    );

    expect(reply.status).toBe(200);
    const second = reply.text.indexOf('HTTP/1.1 414 ');
    expect(second).toBeGreaterThan(0);
    expect(reply.text.slice(second)).toContain('"code":"rest_url_too_long"');
  });

  it('keeps serving after refusing long URLs', async () => {
    await fetch(`${api.base}/events?search=${pad(70 * 1024)}`).then((r) => r.text());

    const res = await api.get('/categories');

    expect(res.status).toBe(200);
  });
});

describe('headers too large', () => {
  it.each([
    ['one header of 70 KB', `X-Pad: ${pad(70 * 1024)}\r\n`],
    [
      'many headers of 70 KB in all',
      Array.from({ length: 35 }, (_, i) => `X-Pad-${i}: ${pad(2048)}\r\n`).join(''),
    ],
  ])('answers %s with a 431 envelope', async (_name, headers) => {
    const reply = await exchange(
      portOf(),
      `GET /cal/events/v1/categories HTTP/1.1\r\nHost: 127.0.0.1\r\n${headers}\r\n`,
    );

    expectEnvelope(
      {
        status: reply.status,
        body: JSON.parse(reply.body),
        contentType: /^content-type: (.+)$/im.exec(reply.headers)?.[1] ?? null,
        version: /^x-cal-api-version: (.+)$/im.exec(reply.headers)?.[1] ?? null,
      },
      431,
      'rest_headers_too_large',
    );
  });

  it('answers a request that is not HTTP with a 400 envelope', async () => {
    const reply = await exchange(portOf(), 'NOT HTTP AT ALL\r\n\r\n');

    expectEnvelope(
      {
        status: reply.status,
        body: JSON.parse(reply.body),
        contentType: /^content-type: (.+)$/im.exec(reply.headers)?.[1] ?? null,
        version: /^x-cal-api-version: (.+)$/im.exec(reply.headers)?.[1] ?? null,
      },
      400,
      'rest_bad_request',
    );
  });
});

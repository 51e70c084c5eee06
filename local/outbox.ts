import { readdir, readFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { config } from '../shared/config';

/**
 * `/dev/outbox` on the local stack: the mails the service wrote to its outbox (docs/tickets.md), newest
 * first as JSON, and `/dev/outbox/<name>.eml` one of them as it would have been sent. Local only: the
 * deployed API has no such route.
 */
export function serveOutbox(req: IncomingMessage, res: ServerResponse): boolean {
  const { pathname } = new URL(req.url ?? '/', 'http://local');
  if (req.method !== 'GET' || !/^\/dev\/outbox(\/[\w.-]+\.eml)?\/?$/.test(pathname)) return false;
  const dir = config.outboxDir;
  const name = /\/([\w.-]+\.eml)$/.exec(pathname)?.[1];
  const answer = name
    ? readFile(join(dir, name)).then((mail) => {
        res.writeHead(200, { 'Content-Type': 'message/rfc822' });
        res.end(mail);
      })
    : readdir(dir, { withFileTypes: true })
        .catch(() => [])
        .then(async (entries) => {
          const mails = entries.filter((e) => e.isFile() && e.name.endsWith('.eml'));
          const listed = await Promise.all(
            mails.map(async (e) => {
              const head = (await readFile(join(dir, e.name), 'utf8')).split('\r\n\r\n')[0] ?? '';
              const header = (h: string) => new RegExp(`^${h}: (.*)$`, 'mi').exec(head)?.[1];
              return {
                name: e.name,
                url: `/dev/outbox/${e.name}`,
                to: header('To'),
                subject: header('Subject'),
                date: header('Date'),
              };
            }),
          );
          listed.sort((a, b) => Date.parse(b.date ?? '') - Date.parse(a.date ?? ''));
          res.writeHead(200, { 'Content-Type': 'application/json' });
          res.end(JSON.stringify({ outbox: dir, mails: listed }));
        });
  answer.catch(() => {
    res.writeHead(404, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify({ code: 'rest_no_route', message: 'No such mail in the outbox.' }));
  });
  return true;
}

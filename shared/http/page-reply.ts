import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import type { PageAnswer, PageOutcome } from '../services/pages';
import { statusOf } from './errors';
import { logger } from './logger';

const STATUS: Record<PageOutcome, number> = { ok: 200, 'not-found': 404, gone: 410 };

/**
 * The public pages' cache lifetime. CloudFront and browsers keep a page this long, so an edit shows
 * within a minute without invalidating anything; the API itself is never cached.
 */
export const PAGE_MAX_AGE_SECONDS = 60;

const headers = (maxAge: number) => ({
  'Content-Type': 'text/html; charset=UTF-8',
  'Cache-Control': `public, max-age=${maxAge}`,
  'X-Content-Type-Options': 'nosniff',
});

/**
 * A rendered page as HTTP: 200, 404 or 410, always HTML (never the API's JSON envelope). A page with
 * seats left (`seats`) is kept by the edge (s-maxage) but not by browsers (max-age=0): a visitor back
 * from registering sees the seats as the edge has them, not as their browser saw them before.
 */
export function pageResponse(
  page: { outcome: PageOutcome; html: string; seats?: boolean },
  event: APIGatewayProxyEventV2,
): APIGatewayProxyStructuredResultV2 {
  const head = event.requestContext?.http?.method === 'HEAD';
  const base = headers(PAGE_MAX_AGE_SECONDS);
  return {
    statusCode: STATUS[page.outcome],
    headers: page.seats
      ? { ...base, 'Cache-Control': `public, max-age=0, s-maxage=${PAGE_MAX_AGE_SECONDS}` }
      : base,
    body: head ? '' : page.html,
  };
}

/** What a visitor sees when a page could not be read (the data store failed): a 503 to retry, logged. */
export async function pageFailure(error: unknown): Promise<APIGatewayProxyStructuredResultV2> {
  await logger.error('page rendering failed', { error: error as Error });
  return {
    statusCode: 503,
    headers: { ...headers(0), 'Cache-Control': 'no-store', 'Retry-After': '5' },
    body: `<!doctype html><html lang="en"><meta charset="utf-8"><title>Try again – Event calendar</title>
<link rel="stylesheet" href="/app.css"><main class="error-page"><h1>Try again</h1>
<p>This page could not be read just now. Reload it in a few seconds.</p><p><a href="/">Back to the calendar</a></p></main></html>`,
  };
}

/**
 * The answer of a tickets' page (shared/services/pages/ticket-pages.ts): never cached (a form's answer,
 * seats that change, the attendee's own); the attendee's pages are also kept from search engines and
 * from sending their address (which holds the secret) as a Referer.
 */
export function ticketPageResponse(
  answer: PageAnswer,
  event: APIGatewayProxyEventV2,
): APIGatewayProxyStructuredResultV2 {
  const head = event.requestContext?.http?.method === 'HEAD';
  const status =
    answer.outcome === 'ok' ? 200 : answer.outcome === 'see-other' ? 303 : statusOf(answer.outcome);
  return {
    statusCode: status,
    headers: {
      ...headers(0),
      'Cache-Control': 'no-store',
      'X-Robots-Tag': 'noindex, nofollow',
      ...(answer.private ? { 'Referrer-Policy': 'no-referrer' } : {}),
      ...(answer.location ? { Location: answer.location } : {}),
      ...(answer.retryAfter ? { 'Retry-After': String(answer.retryAfter) } : {}),
    },
    body: head ? '' : answer.html,
  };
}

import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { ticketPageRouteOf } from '../../shared/domain/page-paths';
import { isCrossSite } from '../../shared/http/cross-site';
import { pageFailure, ticketPageResponse } from '../../shared/http/page-reply';
import {
  attendeeAnswer,
  cancelFromPage,
  crossSiteAnswer,
  notFoundPage,
  type PageAnswer,
  registerFromPage,
} from '../../shared/services/pages';
import { calendarShell } from './shell';

/**
 * The tickets' pages (docs/tickets.md, "Pages"): `POST /event/<slug>/register/` (the event page's
 * registration form), `GET /attendee/<id>/?token=` (the attendee's own page), `GET` and `POST
 * /attendee/<id>/cancel/` (the question, then the cancellation). Plain HTML forms, no script: bodies
 * are `application/x-www-form-urlencoded`. A function of its own, which writes: the public pages'
 * (render-page.ts) only read and are cached.
 */

/** Past this, a form is no registration (a name, an address and a few choices): refused unread. */
const MAX_FORM_BYTES = 16 * 1024;

const notFound = () => notFoundPage('page');

/** The posted form, or undefined when it is none (another type, too large). */
function formOf(event: APIGatewayProxyEventV2): URLSearchParams | undefined {
  const type = (event.headers?.['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/x-www-form-urlencoded') return undefined;
  const raw = event.body ?? '';
  const text = event.isBase64Encoded ? Buffer.from(raw, 'base64').toString('utf8') : raw;
  return Buffer.byteLength(text) > MAX_FORM_BYTES ? undefined : new URLSearchParams(text);
}

async function answer(event: APIGatewayProxyEventV2): Promise<PageAnswer> {
  const method = event.requestContext?.http?.method ?? 'GET';
  const route = ticketPageRouteOf(event.rawPath ?? '/');
  if (!route) return notFound();
  const headers = event.headers ?? {};
  if (method === 'POST') {
    if (isCrossSite(headers)) return crossSiteAnswer();
    const form = formOf(event);
    if (!form)
      return {
        outcome: 'invalid',
        html: '<!doctype html><html lang="en"><meta charset="utf-8"><title>Not a form</title><p>Send the page\'s form.</p></html>',
      };
    if (route.kind === 'register')
      return registerFromPage(route.slug, form, {
        shell: calendarShell(),
        sourceIp: event.requestContext?.http?.sourceIp,
      });
    return route.action === 'cancel' ? cancelFromPage(route.id, form) : notFound();
  }
  if (route.kind === 'attendee')
    return attendeeAnswer(route.id, new URLSearchParams(event.rawQueryString ?? ''), route.action);
  return notFound();
}

export async function handler(event: APIGatewayProxyEventV2): Promise<APIGatewayProxyStructuredResultV2> {
  try {
    return ticketPageResponse(await answer(event), event);
  } catch (e) {
    return pageFailure(e);
  }
}

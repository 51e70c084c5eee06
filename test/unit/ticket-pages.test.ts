import { describe, expect, it } from 'vitest';
import {
  attendeePath,
  pageFunctionOf,
  registerPath,
  ticketPageRouteOf,
} from '../../shared/domain/page-paths';
import { isCrossSite } from '../../shared/http/cross-site';
import { readRegistration } from '../../shared/services/pages';

/** The pure rules of the tickets' pages (docs/tickets.md, "Pages"): their addresses, the form, the cross-site check. */

describe("the tickets' pages' addresses", () => {
  it('names the registration form below the event page, and the attendee page with its token', () => {
    expect(registerPath('jazz-night')).toBe('/event/jazz-night/register/');
    expect(attendeePath(12, { token: 'a-b_c' })).toBe('/attendee/12/?token=a-b_c');
    expect(attendeePath(12, { token: 't', done: 'registered' })).toBe(
      '/attendee/12/?token=t&done=registered',
    );
    expect(attendeePath(12, { action: 'cancel' })).toBe('/attendee/12/cancel/');
    // Whatever a token holds stays in the query, encoded.
    expect(attendeePath(12, { token: '"><x' })).toBe('/attendee/12/?token=%22%3E%3Cx');
  });

  it('reads them back, and nothing else', () => {
    expect(ticketPageRouteOf('/event/jazz-night/register/')).toEqual({
      kind: 'register',
      slug: 'jazz-night',
    });
    expect(ticketPageRouteOf('/attendee/12/')).toEqual({ kind: 'attendee', id: 12 });
    expect(ticketPageRouteOf('/attendee/12/cancel/')).toEqual({ kind: 'attendee', id: 12, action: 'cancel' });
    for (const path of [
      '/event/jazz-night/',
      '/event/register/',
      '/event/a/b/register/',
      '/attendee/',
      '/attendee/0/',
      '/attendee/12',
      '/attendee/12/edit/',
      '/attendee/1e3/',
      '/attendee/99999999999999999/',
    ])
      expect(ticketPageRouteOf(path), path).toBeUndefined();
  });

  it("sends each method and prefix to its function: public pages read, the tickets' pages write", () => {
    expect(pageFunctionOf('GET', '/event/x/')).toBe('render');
    expect(pageFunctionOf('HEAD', '/tag/x/')).toBe('render');
    expect(pageFunctionOf('POST', '/event/x/register/')).toBe('tickets');
    expect(pageFunctionOf('GET', '/attendee/1/')).toBe('tickets');
    expect(pageFunctionOf('POST', '/attendee/1/cancel/')).toBe('tickets');
    expect(pageFunctionOf('POST', '/venue/x/')).toBeUndefined();
    expect(pageFunctionOf('DELETE', '/attendee/1/')).toBeUndefined();
    expect(pageFunctionOf('GET', '/cal/events/v1/events')).toBeUndefined();
  });
});

describe('a form post from another site', () => {
  const at = { host: 'events.example.org' };
  it('is told by Sec-Fetch-Site first: only same-origin (or a navigation of the user) passes', () => {
    expect(isCrossSite({ ...at, 'sec-fetch-site': 'same-origin' })).toBe(false);
    expect(isCrossSite({ ...at, 'sec-fetch-site': 'none' })).toBe(false);
    expect(isCrossSite({ ...at, 'sec-fetch-site': 'same-site' })).toBe(true);
    expect(isCrossSite({ ...at, 'sec-fetch-site': 'cross-site' })).toBe(true);
    // Its word stands over an Origin that would pass.
    expect(isCrossSite({ ...at, 'sec-fetch-site': 'cross-site', origin: 'https://events.example.org' })).toBe(
      true,
    );
  });

  it('is told by Origin without it: the host the request came to, as the viewer named it', () => {
    expect(isCrossSite({ ...at, origin: 'https://events.example.org' })).toBe(false);
    expect(isCrossSite({ ...at, origin: 'https://evil.example' })).toBe(true);
    expect(isCrossSite({ ...at, origin: 'null' })).toBe(true);
    expect(isCrossSite({ ...at, origin: 'not a url' })).toBe(true);
    // Behind CloudFront, Host is API Gateway's: the viewer's host comes as X-Forwarded-Host.
    expect(
      isCrossSite({
        host: 'abc.execute-api.eu-west-1.amazonaws.com',
        'x-forwarded-host': 'events.example.org',
        origin: 'https://events.example.org',
      }),
    ).toBe(false);
  });

  it('passes without either (not a browser: it could use the JSON API alike)', () => {
    expect(isCrossSite(at)).toBe(false);
  });
});

describe('the registration form', () => {
  const form = (fields: Record<string, string>) => readRegistration(new URLSearchParams(fields));

  it('reads a registration, trimmed, with the RSVP answer and the waitlist', () => {
    expect(
      form({ ticket_id: '7', full_name: ' Ada ', email: ' ada@example.org ', attendee_status: 'not going' }),
    ).toEqual({
      ticketId: 7,
      values: { full_name: 'Ada', email: 'ada@example.org', attendee_status: 'not going', waitlist: false },
      errors: {},
    });
    expect(
      form({ ticket_id: '7', full_name: 'A', email: 'a@example.org', waitlist: '1' }).values.waitlist,
    ).toBe(true);
    expect(
      form({ ticket_id: '7', full_name: 'A', email: 'a@example.org', waitlist: '0' }).values.waitlist,
    ).toBe(false);
  });

  it("words what the API's validator refuses, field by field", () => {
    expect(form({ ticket_id: '7', full_name: '  ', email: '' }).errors).toEqual({
      full_name: 'Enter your name.',
      email: 'Enter your e-mail address.',
    });
    expect(form({ ticket_id: '7', full_name: 'A', email: 'a@b' }).errors).toEqual({
      email: 'Enter an e-mail address in the form name@example.org.',
    });
    expect(form({ ticket_id: '7', full_name: 'x'.repeat(201), email: 'a@example.org' }).errors).toEqual({
      full_name: 'Your name must be 200 characters or fewer.',
    });
    expect(
      form({ ticket_id: '7', full_name: 'A', email: 'a@example.org', attendee_status: 'maybe' }).errors,
    ).toEqual({
      attendee_status: 'Choose whether you will attend.',
    });
  });

  it('names no ticket for an ID the API could not take', () => {
    for (const id of ['', 'x', '0', '-1', '1.5', '99999999999999999'])
      expect(form({ ticket_id: id, full_name: 'A', email: 'a@example.org' }).ticketId, id).toBeUndefined();
  });
});

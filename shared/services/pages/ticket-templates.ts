import { config } from '../../config';
import { registerPath } from '../../domain/page-paths';
import type { TicketView } from '../../schemas/tickets';
import type { RegistrationField, RegistrationValues } from './registration-form';
import { esc, wallText } from './templates';

/**
 * An event's tickets on its page (docs/tickets.md, "Pages"): each ticket with its seats left and sales
 * window, and a registration form that works without the page's script (a plain form post to
 * `/event/<slug>/register/`). Accessible as forms go: a label for every field, the ticket's fieldset
 * and legend, `autocomplete`, `required`; after a refused post, an error summary that takes the focus
 * on load (`autofocus`, no script needed) and links to each field, whose message is tied to it by
 * `aria-describedby` and `aria-invalid`.
 */

/** Where a ticket stands at `nowWall`: on sale, full (the waitlist is open), not yet or no longer on sale. */
export type TicketState = 'open' | 'sold-out' | 'not-yet' | 'closed';

export function ticketState(t: TicketView, nowWall: string): TicketState {
  if (t.available_from && nowWall < t.available_from) return 'not-yet';
  if (t.available_until && nowWall > t.available_until) return 'closed';
  return t.capacity >= 0 && (t.capacity_details.available ?? 0) <= 0 ? 'sold-out' : 'open';
}

/** What the page shows of a refused post: the ticket it was for, what was sent, what was wrong. */
export interface FormState {
  ticketId: number;
  values: RegistrationValues;
  errors: Partial<Record<RegistrationField, string>>;
  /** What went wrong with the registration as a whole (no seat left, closed, too many tries). */
  problem?: string;
}

const seatsText = (t: TicketView): string => {
  if (t.capacity < 0) return 'Unlimited seats';
  const left = t.capacity_details.available ?? 0;
  return `${left} of ${t.capacity} ${t.capacity === 1 ? 'seat' : 'seats'} left`;
};

function windowText(t: TicketView, state: TicketState): string {
  const zone = `(${config.siteTimezone})`;
  if (state === 'not-yet') return `Registration opens ${wallText(t.available_from ?? '')} ${zone}.`;
  if (state === 'closed') return `Registration closed ${wallText(t.available_until ?? '')} ${zone}.`;
  if (t.available_until) return `Registration until ${wallText(t.available_until)} ${zone}.`;
  return '';
}

const STATE_TEXT: Record<TicketState, string> = {
  open: '',
  'sold-out': 'Sold out: you can join the waitlist, and a seat that becomes free goes to the first waiting.',
  'not-yet': 'Not on sale yet.',
  closed: 'No longer on sale.',
};

/** The section of an event's page with its tickets ('' when it has none). */
export function ticketsSection(
  tickets: TicketView[],
  o: { slug: string; nowWall: string; form?: FormState },
): string {
  if (tickets.length === 0) return '';
  return `
  <section class="tickets" aria-labelledby="tickets-title" data-role="tickets">
    <h3 id="tickets-title">${tickets.length > 1 ? 'Tickets' : 'Ticket'}</h3>
    ${tickets.map((t) => ticketBlock(t, o.slug, o.nowWall, o.form?.ticketId === t.id ? o.form : undefined)).join('\n')}
  </section>`;
}

function ticketBlock(t: TicketView, slug: string, nowWall: string, form?: FormState): string {
  const state = ticketState(t, nowWall);
  const id = `ticket-${t.id}`;
  const facts = [
    `<p class="seats" data-role="seats-left">${esc(seatsText(t))}</p>`,
    ...(STATE_TEXT[state]
      ? [`<p class="ticket-state" data-role="ticket-state">${esc(STATE_TEXT[state])}</p>`]
      : []),
    ...(windowText(t, state)
      ? [`<p class="hint" data-role="sales-window">${esc(windowText(t, state))}</p>`]
      : []),
  ];
  const description = t.description ? `<p>${esc(t.description)}</p>` : '';
  const canRegister = state === 'open' || state === 'sold-out';
  return `<div class="ticket" id="${id}" data-ticket-id="${t.id}" data-state="${state}">
      <h4 id="${id}-title">${esc(t.title)}${t.provider === 'rsvp' ? ' <span class="hint">(RSVP)</span>' : ''}</h4>
      ${description}
      ${facts.join('\n      ')}
      ${form ? errorSummary(t, form) : ''}
      ${canRegister ? registrationForm(t, slug, state === 'sold-out', form) : ''}
    </div>`;
}

/**
 * What was wrong with a refused post, above the ticket's form: focused on load (`autofocus` on a
 * region with `tabindex="-1"`: no script needed), its field messages linking to their fields.
 */
function errorSummary(t: TicketView, form: FormState): string {
  const problems = Object.entries(form.errors) as Array<[RegistrationField, string]>;
  if (!problems.length && !form.problem) return '';
  const id = fieldId(t, 'problems');
  const target = (name: RegistrationField) => fieldId(t, name === 'attendee_status' ? 'going' : name);
  return `<section class="error-summary" id="${id}" aria-labelledby="${id}-title" tabindex="-1" autofocus>
        <h5 id="${id}-title">There is a problem</h5>
        ${form.problem ? `<p data-role="form-problem">${esc(form.problem)}</p>` : ''}
        ${problems.length ? `<ul>${problems.map(([name, message]) => `<li><a href="#${target(name)}">${esc(message)}</a></li>`).join('')}</ul>` : ''}
      </section>`;
}

/** The ID of a field of a ticket's form (unique on the page: one form per ticket). */
const fieldId = (t: TicketView, name: string) => `register-${t.id}-${name}`;

function registrationForm(t: TicketView, slug: string, waitlist: boolean, form?: FormState): string {
  const values = form?.values;
  const errors = form?.errors ?? {};
  const describe = (name: RegistrationField, hint?: string) => {
    const ids = [...(hint ? [hint] : []), ...(errors[name] ? [`${fieldId(t, name)}-error`] : [])];
    return `${ids.length ? ` aria-describedby="${ids.join(' ')}"` : ''}${errors[name] ? ' aria-invalid="true"' : ''}`;
  };
  const errorLine = (name: RegistrationField) =>
    errors[name]
      ? `<p class="field-error" id="${fieldId(t, name)}-error"><span class="sr-only">Error: </span>${esc(errors[name])}</p>`
      : '';
  const rsvp =
    t.provider === 'rsvp' && !waitlist
      ? `<fieldset class="choices">
            <legend>Will you attend?</legend>
            ${errorLine('attendee_status')}
            ${(['going', 'not going'] as const)
              .map(
                (v) =>
                  `<span class="choice"><input type="radio" id="${fieldId(t, v.replace(' ', '-'))}" name="attendee_status" value="${v}"${
                    (values?.attendee_status ?? 'going') === v ? ' checked' : ''
                  } /><label for="${fieldId(t, v.replace(' ', '-'))}">${v === 'going' ? 'Yes, I am going' : 'No, I am not going'}</label></span>`,
              )
              .join('\n            ')}
          </fieldset>`
      : '';
  const action = waitlist ? 'Join the waitlist' : t.provider === 'rsvp' ? 'Send my answer' : 'Register';
  return `<form class="register" method="post" action="${esc(registerPath(slug))}" novalidate data-role="register-form">
        <input type="hidden" name="ticket_id" value="${t.id}" />
        ${waitlist ? '<input type="hidden" name="waitlist" value="1" />' : ''}
        <fieldset>
          <legend>${waitlist ? 'Join the waitlist for' : 'Register for'} ${esc(t.title)}</legend>
          <div class="field">
            <label for="${fieldId(t, 'full_name')}">Your name (required)</label>
            ${errorLine('full_name')}
            <input id="${fieldId(t, 'full_name')}" name="full_name" type="text" autocomplete="name" required maxlength="200" value="${esc(values?.full_name ?? '')}"${describe('full_name')} />
          </div>
          <div class="field">
            <label for="${fieldId(t, 'email')}">E-mail address (required)</label>
            <p class="hint" id="${fieldId(t, 'email')}-hint">The confirmation and the link to your registration are sent there. It is never shown on the site.</p>
            ${errorLine('email')}
            <input id="${fieldId(t, 'email')}" name="email" type="email" autocomplete="email" spellcheck="false" required maxlength="254" value="${esc(values?.email ?? '')}"${describe('email', `${fieldId(t, 'email')}-hint`)} />
          </div>
          ${rsvp}
          <div class="actions">
            <button type="submit">${action}</button>
          </div>
        </fieldset>
      </form>`;
}

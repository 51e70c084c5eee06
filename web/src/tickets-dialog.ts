import { ApiError, type CalEvent, cal, fieldMessages, listAll, pageError, type Ticket } from './api';
import { el } from './detail';
import { attendeePagePath } from './page-route';
import {
  checkRegistration,
  confirmation,
  type Refusal,
  refusalText,
  type Registered,
  registrable,
  registrationBody,
  type RegistrationField,
  ticketStanding,
} from './registration';

/**
 * The tickets of an event in its detail dialog (issue 42, docs/tickets.md): each ticket with the seats
 * left, and a registration form (name, e-mail, going / not going for an RSVP, the waitlist when full)
 * that registers through POST /attendees and shows the confirmation. The rules are registration.ts's;
 * this draws them. An event without tickets shows nothing.
 */

/** The client's error (or the network's) as the forms read it. */
export function refusalOf(e: unknown): Refusal {
  const err = e instanceof ApiError ? e : pageError((e as Error).message);
  return {
    status: err.status,
    code: err.code,
    message: err.message,
    fields: fieldMessages(err),
    retryAfter: err.headers.get('retry-after'),
  };
}

/** The tickets of an event, every page. */
export const eventTickets = (postId: number): Promise<Ticket[]> =>
  listAll('listTickets', { query: { post_id: postId, per_page: 50 } });

const FIELDS: Record<
  RegistrationField,
  { label: string; type: string; autocomplete: string; hint?: string }
> = {
  full_name: { label: 'Name (required)', type: 'text', autocomplete: 'name' },
  email: {
    label: 'E-mail (required)',
    type: 'email',
    autocomplete: 'email',
    hint: 'Your confirmation goes there. Other visitors never see it.',
  },
};

function radio(name: string, value: string, label: string, checked: boolean): HTMLElement {
  const id = `dr-${name}-${value.replace(/\W+/g, '-')}`;
  // The attribute, not the property: the form's reset returns to it.
  const input = el('input', { type: 'radio', id, name, value, ...(checked ? { checked: '' } : {}) });
  return el('span', { class: 'choice' }, input, el('label', { for: id }, label));
}

/**
 * Appends the event's tickets section to the detail's body and fills it once they are read; `links`
 * leads those who manage the attendees to the check-in and the list (manage-views.ts).
 */
export function showTickets(e: CalEvent, body: HTMLElement, links: HTMLElement | null = null): void {
  const section = el('section', {
    class: 'tickets',
    'aria-labelledby': 'detail-tickets-title',
    'data-role': 'tickets',
  });
  section.hidden = true;
  body.append(section);
  void eventTickets(e.id).then(
    (tickets) => {
      if (!section.isConnected || !tickets.length) return section.remove();
      section.hidden = false;
      ticketsSection(e, section, tickets);
      if (links) section.querySelector('.ticket-list')!.after(links);
    },
    (err: Error) => {
      section.hidden = false;
      section.replaceChildren(
        el('h3', { id: 'detail-tickets-title' }, 'Tickets'),
        el('p', { class: 'error' }, `Could not load the tickets: ${err.message}`),
      );
    },
  );
}

function ticketsSection(e: CalEvent, section: HTMLElement, initial: Ticket[]): void {
  let tickets = initial;
  const list = el('ul', { class: 'ticket-list' });
  const drawList = () =>
    list.replaceChildren(
      ...tickets.map((t) => {
        const s = ticketStanding(t);
        const item = el(
          'li',
          { 'data-ticket-id': String(t.id), 'data-state': s.state },
          el('span', { class: 'ticket-title' }, t.title),
          ' ',
          el('span', { class: 'seats', 'data-role': 'seats' }, s.seats),
        );
        const about = (t.description ?? '').replace(/<[^>]*>/g, '').trim();
        if (about) item.append(el('p', { class: 'ticket-about' }, about));
        if (s.note) item.append(el('p', { class: 'hint' }, s.note));
        return item;
      }),
    );
  drawList();
  section.replaceChildren(el('h3', { id: 'detail-tickets-title' }, 'Tickets'), list);
  if (e.status !== 'publish') {
    section.append(el('p', { class: 'hint' }, 'Registration opens once the event is published.'));
    return;
  }
  if (!registrable(tickets).length) return;

  const summary = el('div', { id: 'detail-register-error', class: 'error', role: 'alert', tabindex: '-1' });
  summary.hidden = true;
  const ticketChoice = el('fieldset', { class: 'choices', id: 'dr-ticket' });
  const rsvpChoice = el(
    'fieldset',
    { class: 'choices', id: 'dr-rsvp' },
    el('legend', {}, 'Will you come?'),
    radio('attendee_status', 'going', 'Going', true),
    radio('attendee_status', 'not going', 'Not going', false),
  );
  const waitNote = el('p', { class: 'hint', id: 'dr-wait-note', 'data-role': 'waitlist-note' });
  const submit = el('button', { type: 'submit', id: 'dr-submit' }, 'Register');
  const inputs = {} as Record<RegistrationField, HTMLInputElement>;
  const fields = (Object.keys(FIELDS) as RegistrationField[]).map((name) => {
    const f = FIELDS[name];
    const id = `dr-${name}`;
    const input = el('input', { id, name, type: f.type, autocomplete: f.autocomplete, required: '' });
    inputs[name] = input;
    const wrap = el('div', { class: 'field', 'data-field': name }, el('label', { for: id }, f.label), input);
    if (f.hint) {
      wrap.append(el('p', { class: 'hint', id: `${id}-hint` }, f.hint));
      input.setAttribute('aria-describedby', `${id}-hint`);
      input.dataset.describedby = `${id}-hint`;
    }
    return wrap;
  });
  const form = el(
    'form',
    { id: 'detail-register', class: 'register', 'aria-labelledby': 'detail-register-title', novalidate: '' },
    el('h4', { id: 'detail-register-title' }, 'Register'),
    summary,
    ticketChoice,
    ...fields,
    rsvpChoice,
    waitNote,
    el('div', { class: 'dialog-actions' }, submit),
  );
  const done = el('div', { class: 'register-done', 'data-role': 'confirmation' });
  done.hidden = true;
  section.append(form, done);

  const chosen = (): Ticket => {
    const open = registrable(tickets);
    const id = Number(form.querySelector<HTMLInputElement>('input[name="ticket_id"]:checked')?.value);
    return open.find((t) => t.id === id) ?? open[0] ?? tickets[0]!;
  };
  /** The parts that follow the chosen ticket: its RSVP question, the waitlist's offer, the button. */
  const follow = () => {
    const t = chosen();
    const rsvp = t.provider === 'rsvp';
    rsvpChoice.hidden = !rsvp;
    const going = !rsvp || form.querySelector<HTMLInputElement>('#dr-attendee_status-going')!.checked;
    const full = ticketStanding(t).state === 'sold-out';
    waitNote.hidden = !full;
    waitNote.textContent = full ? `${t.title} is sold out. ${ticketStanding(t).note}` : '';
    submit.textContent = full && going ? 'Join the waitlist' : rsvp ? 'Send my answer' : 'Register';
  };
  const drawChoice = () => {
    const open = registrable(tickets);
    const current = chosen().id;
    ticketChoice.hidden = open.length < 2;
    ticketChoice.replaceChildren(
      el('legend', {}, 'Ticket'),
      ...open.map((t) =>
        radio('ticket_id', String(t.id), `${t.title} (${ticketStanding(t).seats})`, t.id === current),
      ),
    );
    follow();
  };
  drawChoice();
  form.addEventListener('change', follow);

  const clearErrors = () => {
    summary.hidden = true;
    summary.textContent = '';
    for (const p of Array.from(form.querySelectorAll('.field-error'))) p.remove();
    for (const input of Object.values(inputs)) {
      input.removeAttribute('aria-invalid');
      const hint = input.dataset.describedby;
      if (hint) input.setAttribute('aria-describedby', hint);
      else input.removeAttribute('aria-describedby');
    }
  };
  /** The summary above the form and each field's own message under it; focus to the first problem. */
  const showErrors = (text: string, byField: Partial<Record<RegistrationField, string>>) => {
    let first: HTMLElement | null = null;
    for (const [name, message] of Object.entries(byField) as Array<[RegistrationField, string]>) {
      const input = inputs[name];
      const errId = `${input.id}-error`;
      input.after(el('p', { id: errId, class: 'field-error' }, message));
      input.setAttribute('aria-invalid', 'true');
      input.setAttribute(
        'aria-describedby',
        [errId, input.getAttribute('aria-describedby')].filter(Boolean).join(' '),
      );
      first ??= input;
    }
    summary.textContent = text;
    summary.hidden = false;
    (first ?? summary).focus();
  };
  const reload = async () => {
    try {
      tickets = await eventTickets(e.id);
    } catch {
      return; // the seats shown stay as they were; the next registration's answer tells the truth
    }
    drawList();
    drawChoice();
  };
  const showDone = (a: Registered) => {
    const c = confirmation(a);
    const heading = el('h4', { tabindex: '-1', id: 'detail-register-done' }, c.heading);
    done.replaceChildren(heading, ...c.lines.map((line) => el('p', {}, line)));
    if (a.token)
      done.append(
        el(
          'p',
          {},
          'Keep this link to see your registration, add the event to your calendar or cancel: ',
          el(
            'a',
            { href: attendeePagePath(a.id, a.token), 'data-role': 'self-service' },
            'your registration',
          ),
          '. The e-mail has it too.',
        ),
      );
    const again = el('button', { type: 'button', id: 'dr-again' }, 'Register someone else');
    again.addEventListener('click', () => {
      form.reset();
      drawChoice();
      done.hidden = true;
      form.hidden = false;
      inputs.full_name.focus();
    });
    done.append(el('div', { class: 'dialog-actions' }, again));
    form.hidden = true;
    done.hidden = false;
    heading.focus();
  };

  let busy = false;
  form.addEventListener('submit', (ev) => {
    ev.preventDefault();
    if (busy) return;
    clearErrors();
    const values = {
      ticket: chosen(),
      full_name: inputs.full_name.value,
      email: inputs.email.value,
      going: form.querySelector<HTMLInputElement>('#dr-attendee_status-going')!.checked,
    };
    const problems = checkRegistration(values);
    if (Object.keys(problems).length) return showErrors('Please check the fields marked below.', problems);
    busy = true;
    submit.disabled = true;
    cal
      .createAttendee({ body: registrationBody(values) })
      .then(async ({ data }) => {
        showDone(data as Registered);
        await reload();
      })
      .catch(async (err: unknown) => {
        const text = refusalText(refusalOf(err));
        // A seat taken meanwhile: the seats are read again, and the form offers the waitlist.
        if (text.soldOut) await reload();
        showErrors(text.summary, text.fields);
      })
      .finally(() => {
        busy = false;
        submit.disabled = false;
      });
  });
}

import { body as registrationBody } from '../../schemas/compiled/createAttendee';

/**
 * The registration form of an event's page (docs/tickets.md, "Pages"), posted as a plain form
 * (`application/x-www-form-urlencoded`): what it sent, read into the API's registration, and what is
 * wrong with it in words for the person filling it in. The rules are the API's own: the fields are
 * checked by the validator compiled from `POST /attendees`' schema (shared/schemas/compiled), so the
 * page can accept nothing the API would refuse; only the wording is the page's.
 */

export type RegistrationField = 'full_name' | 'email' | 'attendee_status';

export interface RegistrationValues {
  full_name: string;
  email: string;
  attendee_status: 'going' | 'not going';
  waitlist: boolean;
}

export interface PostedRegistration {
  /** The ticket the form was for (undefined when it named none that could be). */
  ticketId?: number;
  values: RegistrationValues;
  /** What is wrong, by field, in the page's words; empty when the registration may be sent. */
  errors: Partial<Record<RegistrationField, string>>;
}

const MESSAGES: Record<RegistrationField, { empty: string; invalid: string; long: string }> = {
  full_name: {
    empty: 'Enter your name.',
    invalid: 'Enter your name.',
    long: 'Your name must be 200 characters or fewer.',
  },
  email: {
    empty: 'Enter your e-mail address.',
    invalid: 'Enter an e-mail address in the form name@example.org.',
    long: 'The e-mail address must be 254 characters or fewer.',
  },
  attendee_status: {
    empty: 'Choose whether you will attend.',
    invalid: 'Choose whether you will attend.',
    long: 'Choose whether you will attend.',
  },
};

/** The words for what the API's validator (ajv's keyword) found wrong with a field. */
export const fieldMessage = (field: RegistrationField, keyword: string): string =>
  keyword === 'maxLength' ? MESSAGES[field].long : MESSAGES[field].invalid;

/** A form's ticket ID: a whole number the API could take, else undefined. */
function ticketIdOf(raw: string | null): number | undefined {
  if (raw === null || !/^[1-9]\d{0,15}$/.test(raw.trim())) return undefined;
  const id = Number(raw.trim());
  return Number.isSafeInteger(id) ? id : undefined;
}

/** Reads a posted registration form and checks it with the API's rules. */
export function readRegistration(form: URLSearchParams): PostedRegistration {
  const text = (name: string) => (form.get(name) ?? '').trim();
  const status = text('attendee_status') || 'going';
  const values: RegistrationValues = {
    full_name: text('full_name'),
    email: text('email'),
    attendee_status: status === 'not going' ? 'not going' : 'going',
    // A checkbox or a hidden field: present (any value but "0") means yes.
    waitlist: form.has('waitlist') && form.get('waitlist') !== '0',
  };
  const ticketId = ticketIdOf(form.get('ticket_id'));
  const errors: PostedRegistration['errors'] = {};
  if (!values.full_name) errors.full_name = MESSAGES.full_name.empty;
  if (!values.email) errors.email = MESSAGES.email.empty;
  if (status !== 'going' && status !== 'not going') errors.attendee_status = MESSAGES.attendee_status.invalid;
  const body = {
    ticket_id: ticketId ?? 1,
    full_name: values.full_name,
    email: values.email,
    attendee_status: values.attendee_status,
    waitlist: values.waitlist,
  };
  const validate = registrationBody as ((data: unknown) => boolean) & {
    errors?: Array<{ instancePath: string; keyword: string }> | null;
  };
  if (!validate(body))
    for (const e of validate.errors ?? []) {
      const field = e.instancePath.slice(1) as RegistrationField;
      if (field in MESSAGES && !errors[field]) errors[field] = fieldMessage(field, e.keyword);
    }
  return { ticketId, values, errors };
}

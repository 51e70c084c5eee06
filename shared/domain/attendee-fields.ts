import { DomainError } from './errors';

/**
 * Attendee information fields (docs/tickets.md): the questions a ticket asks each registrant, in the
 * shape of the reference's Event Tickets Plus fields (`{slug, type, required, label, extra}`, with a
 * select's, radio's or checkbox's choices in `extra.options`), and the rules their answers follow.
 * Pure: definitions and answers in, normalized values or the problems found out.
 */

export const FIELD_TYPES = [
  'text',
  'email',
  'telephone',
  'url',
  'select',
  'radio',
  'checkbox',
  'birth',
  'datetime',
] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

/** The types whose answer is one (select, radio) or several (checkbox) of the field's options. */
export const CHOICE_TYPES: readonly FieldType[] = ['select', 'radio', 'checkbox'];

/** A field as stored and answered. */
export interface AttendeeField {
  slug: string;
  type: FieldType;
  required: boolean;
  label: string;
  extra: { options?: string[]; multiline?: boolean };
}

/** A field as an editor sends it: `slug` defaults to the label's, `options` may sit beside `extra`. */
export interface FieldInput {
  slug?: string;
  type: FieldType;
  required?: boolean;
  label: string;
  options?: string[];
  extra?: { options?: string[]; multiline?: boolean };
}

/** An answer as stored: a checkbox's chosen options, every other field's text. */
export type Answer = string | string[];
export type Answers = Record<string, Answer>;

/** Most characters of one answer (a multiline text included). */
export const ANSWER_MAX = 2000;

/** A slug as the reference derives one from a label: lower case, letters and digits, `-` between words. */
export const slugOfLabel = (label: string): string =>
  label
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 64);

/** An editor's fields as stored; a 400 naming `attendee_information_fields` when they do not hold together. */
export function normalizeFields(input: FieldInput[]): AttendeeField[] {
  const problems: string[] = [];
  const seen = new Set<string>();
  const fields = input.map((f, i): AttendeeField => {
    const at = `attendee_information_fields[${i}]`;
    const slug = f.slug ?? slugOfLabel(f.label);
    if (!slug)
      problems.push(`${at}.slug: the label "${f.label}" gives no slug; send one (a-z, 0-9, - or _).`);
    else if (seen.has(slug)) problems.push(`${at}.slug: "${slug}" is already the slug of another field.`);
    seen.add(slug);
    const options = f.options ?? f.extra?.options;
    const choice = CHOICE_TYPES.includes(f.type);
    if (choice && (!options || options.length === 0))
      problems.push(`${at}.extra.options: a ${f.type} field needs at least one option.`);
    if (!choice && options !== undefined)
      problems.push(`${at}.extra.options: only select, radio and checkbox fields have options.`);
    if (f.options && f.extra?.options)
      problems.push(`${at}.options: send the options once, in options or in extra.options.`);
    const cleaned = options?.map((o) => o.trim());
    if (cleaned?.some((o) => o === '')) problems.push(`${at}.extra.options: an option is empty.`);
    if (cleaned && new Set(cleaned).size !== cleaned.length)
      problems.push(`${at}.extra.options: an option is listed twice.`);
    if (f.extra?.multiline !== undefined && f.type !== 'text')
      problems.push(`${at}.extra.multiline: only text fields are multiline.`);
    const extra: AttendeeField['extra'] = {
      ...(choice && cleaned ? { options: cleaned } : {}),
      ...(f.type === 'text' && f.extra?.multiline !== undefined ? { multiline: f.extra.multiline } : {}),
    };
    return { slug, type: f.type, required: f.required ?? false, label: f.label.trim(), extra };
  });
  if (problems.length > 0) throw fieldsInvalid(problems);
  return fields;
}

const fieldsInvalid = (problems: string[]) => {
  const message = problems.join(' ');
  return new DomainError(
    'invalid',
    'rest_invalid_param',
    'Invalid parameter(s): attendee_information_fields',
    {
      params: { attendee_information_fields: message },
      details: { attendee_information_fields: { code: 'rest_invalid_attendee_fields', message } },
    },
  );
};

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const TELEPHONE = /^\+?[\d\s().\-/]{3,40}$/;
const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const WALL = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}):(\d{2})(?::(\d{2}))?$/;

/** Whether `y-m-d` names a day of the calendar (2027-02-30 does not). */
function isDay(day: string): boolean {
  const m = DAY.exec(day);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return (
    d.getUTCFullYear() === Number(m[1]) &&
    d.getUTCMonth() === Number(m[2]) - 1 &&
    d.getUTCDate() === Number(m[3])
  );
}

/** One answer as stored, or why it cannot be (`today`: `Y-m-d`, a birth date may not be after it). */
function answerOf(f: AttendeeField, raw: unknown, today: string): { value?: Answer; problem?: string } {
  if (f.type === 'checkbox') {
    const chosen = (Array.isArray(raw) ? raw : [raw]).map((x) => (typeof x === 'string' ? x.trim() : x));
    if (chosen.some((x) => typeof x !== 'string')) return { problem: 'must be a list of its options' };
    const picked = [...new Set((chosen as string[]).filter((x) => x !== ''))];
    const unknown = picked.filter((x) => !f.extra.options?.includes(x));
    if (unknown.length > 0) return { problem: `"${unknown[0]}" is not one of ${optionsText(f)}` };
    return picked.length > 0 ? { value: picked } : {};
  }
  if (typeof raw !== 'string') return { problem: 'must be text' };
  const v = raw.trim();
  if (v === '') return {};
  if (v.length > ANSWER_MAX) return { problem: `is longer than ${ANSWER_MAX} characters` };
  switch (f.type) {
    case 'text':
      return !f.extra.multiline && /[\r\n]/.test(v) ? { problem: 'must be one line' } : { value: v };
    case 'email':
      return EMAIL.test(v) && v.length <= 254 ? { value: v } : { problem: 'must be an e-mail address' };
    case 'telephone':
      return TELEPHONE.test(v) && (v.match(/\d/g)?.length ?? 0) >= 3
        ? { value: v }
        : { problem: 'must be a telephone number (digits, spaces, + ( ) - . /)' };
    case 'url':
      return isWebUrl(v) ? { value: v } : { problem: 'must be an http(s) address' };
    case 'select':
    case 'radio':
      return f.extra.options?.includes(v) ? { value: v } : { problem: `must be one of ${optionsText(f)}` };
    case 'birth':
      if (!isDay(v)) return { problem: 'must be a date, Y-m-d' };
      return v > today ? { problem: 'must not be in the future' } : { value: v };
    case 'datetime': {
      const m = WALL.exec(v);
      if (!m || !isDay(m[1]!) || Number(m[2]) > 23 || Number(m[3]) > 59 || Number(m[4] ?? 0) > 59)
        return { problem: 'must be a date and time, Y-m-d H:i' };
      return { value: `${m[1]} ${m[2]}:${m[3]}:${m[4] ?? '00'}` };
    }
  }
}

const optionsText = (f: AttendeeField) => (f.extra.options ?? []).map((o) => `"${o}"`).join(', ');

function isWebUrl(v: string): boolean {
  try {
    const u = new URL(v);
    return (u.protocol === 'http:' || u.protocol === 'https:') && u.hostname !== '';
  } catch {
    return false;
  }
}

/**
 * A registration's answers checked against its ticket's fields: every required field answered, every
 * answer to a field of the ticket and of its type. The answers as stored (empty ones left out), or a
 * 400 naming `param` (the body field they came in) with each problem by slug in `data.fields`.
 */
export function checkAnswers(
  fields: AttendeeField[],
  answers: Record<string, unknown> | undefined,
  param: string,
  today: string,
): Answers {
  const problems: Record<string, string> = {};
  const out: Answers = {};
  const bySlug = new Map(fields.map((f) => [f.slug, f]));
  for (const slug of Object.keys(answers ?? {}))
    if (!bySlug.has(slug)) problems[slug] = 'is not a question of this ticket';
  for (const f of fields) {
    const raw = answers?.[f.slug];
    const { value, problem } = raw === undefined || raw === null ? {} : answerOf(f, raw, today);
    if (problem) problems[f.slug] = `${f.label}: ${problem}`;
    else if (value !== undefined) out[f.slug] = value;
    else if (f.required) problems[f.slug] = `${f.label}: an answer is required`;
  }
  const slugs = Object.keys(problems);
  if (slugs.length === 0) return out;
  const message = slugs.map((s) => `${param}.${s} (${problems[s]})`).join('; ');
  throw new DomainError('invalid', 'rest_invalid_param', `Invalid parameter(s): ${param}`, {
    params: { [param]: message },
    details: { [param]: { code: 'rest_invalid_attendee_information', message } },
    fields: problems,
  });
}

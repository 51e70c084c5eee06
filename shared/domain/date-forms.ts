/**
 * Every date form the service reads (dates.ts parseDate), for /doc and for the 400 of a date that is
 * none of them. No dependencies: the schemas read it, and a schema must not load the date parser.
 */
export const DATE_FORMS = [
  'Y-m-d H:i:s',
  'Y-m-d H:i',
  'Y-m-d',
  'ISO 8601',
  'a Unix timestamp',
  // The forms of PHP's strtotime that clients of the reference send (decisions §9, relative-dates.ts).
  'm/d/Y (03/15/2027 7pm)',
  'd.m.Y (15.03.2027 19:00)',
  'RFC 2822 (Mon, 15 Mar 2027 19:00:00 +0000)',
  'a relative phrase (tomorrow noon, next monday 10am, +1 week 2 hours, 2 days ago, last day of next month)',
] as const;

/** The forms as one phrase: `A, B, … or Z`. */
export const DATE_FORMS_TEXT = `${DATE_FORMS.slice(0, -1).join(', ')} or ${DATE_FORMS.at(-1)}`;

/** The 400 reason of a date parameter that is no date in any form the service reads. */
export const notADate = (param: string) =>
  `${param} is not a date: use ${DATE_FORMS_TEXT}; an impossible day (2027-02-30) is refused.`;

import type { LocaleInput } from '@fullcalendar/core';

/**
 * FullCalendar's labels in the browser's language (issue 29). Its locales are built one file each into
 * `/locales/<code>.js` (web/build.ts) and only the browser's is fetched, once, before the calendar is
 * drawn: bundling them all (`locales-all`) would add 36 KB to the page's script for the one it needs. English needs none. The dates' and times' formats follow the language either way (`Intl`).
 */
declare const __FC_LOCALES__: readonly string[];

/** The locale file for a language tag: `de-AT` → `de-at`, else `de`; null for English or an unknown one. */
export function localeCode(tag: string, known: readonly string[] = __FC_LOCALES__): string | null {
  const lower = tag.toLowerCase();
  const primary = lower.split('-')[0]!;
  if (primary === 'en') return null;
  if (known.includes(lower)) return lower;
  return known.includes(primary) ? primary : null;
}

/**
 * The `locale` option for the browser's language: FullCalendar's locale when there is one (button texts,
 * "all-day", "+2 more", list's "no events"), else the tag itself (formats by `Intl`, labels in English).
 */
export async function calendarLocale(tag = navigator.language || 'en'): Promise<LocaleInput | string> {
  const code = localeCode(tag);
  if (!code) return tag;
  try {
    const url = `/locales/${code}.js`;
    return ((await import(url)) as { default: LocaleInput }).default;
  } catch {
    return tag; // a missing file costs the labels, not the calendar
  }
}

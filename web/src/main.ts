import { Calendar, type EventInput, type EventSourceFuncArg } from '@fullcalendar/core';
import dayGridPlugin from '@fullcalendar/daygrid';
import listPlugin from '@fullcalendar/list';
import timeGridPlugin from '@fullcalendar/timegrid';
import { API_ROOT, ApiError, type CalEvent, cal, listAll, type Term, token, venuesOf } from './api';
import { el, renderDetail, statusLabel } from './detail';
import { setUpDayClick } from './day-click';
import { openEditor, saveEditor, setUpFieldChecks, setUpRepeat } from './editor';
import { setUpInlineCreate } from './inline-create';
import { enhanceMultiSelect, refreshMultiSelects } from './multi-select';
import { apiFilters, badDate, type PageState, readState, searchOf, stateQuery } from './filters';
import { nextDay, TIME_FORMAT, toInput, utcInstant, viewerZone } from './format';
import { colourOf, coloursReady, legendElement, renderLegend, setCategories } from './colours';
import { setUpFilterToggle } from './filter-toggle';
import { calendarLocale } from './locale';
import { frameHours, scrollToOpeningHour } from './time-frame';
import { viewStatus, type ViewStatus } from './view-status';
import { calendarPath, eventSlugOf } from './page-route';
import { setUpSubscribe, updateSubscribe as updateSubscribeMenu } from './subscribe';
import { askScope } from './scope';
import { confirmTrash, offerUndo } from './trash-undo';
import { eventPagePath, moreLinkIsButton, unlinkDayLabels } from './crawlable';
import { beforeSeriesTrash } from './series-undo';
import {
  beginSignIn,
  completeSignIn,
  loadSignInConfig,
  type SignInConfig,
  signOutUrl,
  takeCallback,
} from './signin';

/**
 * The calendar page: FullCalendar fed by GET /events (every page, by `next_rest_url`) for the visible
 * range, filters in the URL, an event's detail from GET /events/{id}, and editing with a pasted token.
 */
const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
/** What the calendar shows: loading, failed (with a retry), empty, or how many events (view-status.ts). */
let status: ViewStatus;
/** The outcome of what the user did (kept until the next action). */
const notice = (text: string) => ($('notice').textContent = text);

// The sign-in's answer leaves the URL before the filters are read from it.
const signInCallback = takeCallback();
let signInConfig: SignInConfig | null = null;
let state: PageState = readState();
let calendar: Calendar;

// ---- Who is signed in (the token is the API's; its payload only labels the page) ---------------

function claims(): { role?: string; sub?: string } | null {
  const t = token.get();
  if (!t) return null;
  try {
    const payload = JSON.parse(atob(t.split('.')[1]!.replace(/-/g, '+').replace(/_/g, '/'))) as Record<
      string,
      unknown
    >;
    const groups = payload['cognito:groups'];
    const role =
      (payload['cal:role'] as string | undefined) ?? (Array.isArray(groups) ? String(groups[0]) : undefined);
    return { role, sub: payload.sub as string | undefined };
  } catch {
    return {};
  }
}

const signedIn = () => token.get() !== null;

function renderAccount(): void {
  const c = claims();
  $('who').textContent = c
    ? `Signed in${c.role ? ` as ${c.role}` : ''}${c.sub ? ` (${c.sub})` : ''}`
    : 'Not signed in';
  $('sign-in').hidden = !!c;
  $('sign-out').hidden = !c;
  $('new-event').hidden = !c;
  $('f-trash-field').hidden = !c;
}

// ---- Filters: options from the API, values from and to the URL ---------------------------------

function fill(id: string, options: Array<{ value: string; label: string }>, keepFirst = true): void {
  const sel = $<HTMLSelectElement>(id);
  const first = keepFirst ? sel.options[0] : undefined;
  sel.replaceChildren(
    ...(first ? [first] : []),
    ...options.map((o) => el('option', { value: o.value }, o.label)),
  );
}

/** Categories in tree order, children indented under their parent. */
function categoryTree(terms: Term[]): Array<{ term: Term; depth: number }> {
  const out: Array<{ term: Term; depth: number }> = [];
  const known = new Set(terms.map((t) => t.id));
  const walk = (parent: number, depth: number) => {
    for (const t of terms.filter((x) => (known.has(x.parent ?? 0) ? x.parent : 0) === parent)) {
      out.push({ term: t, depth });
      if (depth < 8) walk(t.id, depth + 1);
    }
  };
  walk(0, 0);
  return out;
}

async function loadOptions(): Promise<void> {
  const [cats, tags, venues, organizers] = await Promise.all([
    listAll('listCategories', { query: { per_page: 50, hide_empty: false } }),
    listAll('listTags', { query: { per_page: 50, hide_empty: false } }),
    listAll('listVenues', { query: { per_page: 50 } }).catch(() => []),
    listAll('listOrganizers', { query: { per_page: 50 } }).catch(() => []),
  ]);
  const tree = categoryTree(cats);
  setCategories(tree.map(({ term }) => term));
  const indent = (d: number) => '\u2003'.repeat(d) + (d ? '↳ ' : '');
  fill(
    'f-category',
    tree.map(({ term, depth }) => ({ value: term.slug, label: `${indent(depth)}${term.name}` })),
  );
  fill(
    'f-tag',
    tags.map((t) => ({ value: t.slug, label: t.name })),
  );
  fill(
    'f-venue',
    venues.map((v) => ({ value: String(v.id), label: v.venue })),
  );
  fill(
    'f-organizer',
    organizers.map((o) => ({ value: String(o.id), label: o.organizer })),
  );
  fill(
    'e-categories',
    tree.map(({ term, depth }) => ({ value: String(term.id), label: `${indent(depth)}${term.name}` })),
    false,
  );
  fill(
    'e-tags',
    tags.map((t) => ({ value: String(t.id), label: t.name })),
    false,
  );
  fill(
    'e-venue',
    venues.map((v) => ({ value: String(v.id), label: v.venue })),
  );
  fill(
    'e-organizer',
    organizers.map((o) => ({ value: String(o.id), label: o.organizer })),
    false,
  );
  writeFilters();
}

function writeFilters(): void {
  const f = $<HTMLFormElement>('filters');
  const field = (name: string) => f.elements.namedItem(name) as HTMLInputElement;
  for (const k of ['search', 'category', 'tag', 'venue', 'organizer'] as const) field(k).value = state[k];
  field('featured').checked = state.featured;
  field('trash').checked = state.trash;
  $('f-series').hidden = !state.series;
  updateSubscribe();
  showFilterCount();
}

/** On a phone, the folded filters' button says how many apply (filter-toggle.ts). */
let filterCount: (active: number) => void = () => undefined;
const activeFilters = () =>
  (['search', 'category', 'tag', 'venue', 'organizer', 'featured', 'trash', 'series'] as const).filter(
    (k) => state[k],
  ).length;
const showFilterCount = () => filterCount(activeFilters());

function readFilters(): void {
  const f = $<HTMLFormElement>('filters');
  const field = (name: string) => f.elements.namedItem(name) as HTMLInputElement;
  state = {
    ...state,
    search: field('search').value,
    category: field('category').value,
    tag: field('tag').value,
    venue: field('venue').value,
    organizer: field('organizer').value,
    featured: field('featured').checked,
    trash: field('trash').checked,
  };
}

function updateSubscribe(): void {
  const q = searchOf(apiFilters({ ...state, trash: false }, false)).toString();
  updateSubscribeMenu(`${API_ROOT}/events/ical${q ? `?${q}` : ''}`, q !== '');
}

// ---- The address: the calendar's view, or the open event's page (page-route.ts) ------------------

/** The slug of the event whose detail is open: the address is then its page, `/event/<slug>/`. */
let openSlug: string | null = null;
/** The calendar's path while an event is open (a category's or tag's page, a venue's, or `/`). */
let calendarBase = eventSlugOf() ? '/' : location.pathname;
/** The document's title for the calendar (a server-rendered page names its record). */
let calendarTitle = eventSlugOf() ? 'Event calendar' : document.title;

/** The address of the calendar's view as the state stands. */
function calendarUrl(): string {
  const { path, omit } = calendarPath(state, calendarBase);
  return `${path}${stateQuery(omit ? { ...state, [omit]: '' } : state)}`;
}

/**
 * Keeps the URL in step with the page: a new entry for a filter change or a month browsed (so Back
 * returns to it), a replaced one for the view the page opens on. Nothing while an event is open: the
 * address is the event's then.
 */
function syncUrl(push: boolean): void {
  if (openSlug) return;
  const url = calendarUrl();
  if (url === `${location.pathname}${location.search}`) return;
  if (push) history.pushState(null, '', url);
  else history.replaceState(null, '', url);
}

/** An event's detail opened: the address becomes its page (a new entry, so Back closes it). */
function showEventAddress(e: CalEvent): void {
  document.title = `${e.title} – Event calendar`;
  openSlug = e.slug;
  const path = eventPagePath(e.slug);
  if (location.pathname !== path) history.pushState({ event: e.slug }, '', path);
}

/** The detail closed (Close, Escape, Edit, trash): back to the calendar's address. */
function leaveEventAddress(): void {
  if (!openSlug) return;
  openSlug = null;
  document.title = calendarTitle;
  // The event page's own content belongs to its address.
  document.querySelector('#record[data-kind="event"]')?.remove();
  // Opened from the calendar: its entry is the one before. Opened at its address: there is none.
  if ((history.state as { event?: string } | null)?.event) history.back();
  else history.replaceState(null, '', calendarUrl());
}

// ---- Events for the visible range ----------------------------------------------------------------

/** Where a timed event's day ends in the month view and in the all-day row (FullCalendar's option). */
const NEXT_DAY_THRESHOLD_H = 6;

function toInputEvent(e: CalEvent, timeGrid: boolean): EventInput {
  const pending = e.status !== 'publish';
  const { colour, category } = colourOf(e);
  const base: EventInput = {
    id: String(e.id),
    // The element is a link to the event's page (crawlable.ts); a click opens the detail (eventClick).
    url: eventPagePath(e.slug),
    title: pending ? `${e.title} (${statusLabel(e.status)})` : e.title,
    classNames: [`status-${e.status}`, ...(e.featured ? ['featured'] : [])],
    extendedProps: { status: e.status, colour, category, venue: venuesOf(e)[0]?.venue ?? '' },
    // Drafts and pending events stay white and dashed (app.css): only their border takes the colour.
    ...(pending ? { borderColor: colour } : { backgroundColor: colour, borderColor: colour }),
  };
  if (e.all_day)
    return { ...base, allDay: true, start: e.start_date.slice(0, 10), end: nextDay(e.end_date.slice(0, 10)) };
  const start = utcInstant(e.utc_start_date ?? '');
  const end = utcInstant(e.utc_end_date ?? '');
  // A timed event of a day or more is a bar in the week and day views' all-day row, not columns of
  // solid colour: from its first day to its last (one ending before the threshold ends the day before).
  if (timeGrid && end.getTime() - start.getTime() >= 24 * 3600_000) {
    const last = localDate(new Date(end.getTime() - NEXT_DAY_THRESHOLD_H * 3600_000));
    const first = localDate(start);
    return { ...base, allDay: true, start: first, end: nextDay(last < first ? first : last) };
  }
  return {
    ...base,
    start: `${e.utc_start_date?.replace(' ', 'T')}Z`,
    end: `${e.utc_end_date?.replace(' ', 'T')}Z`,
  };
}

let inFlight: AbortController | null = null;

/**
 * The events to draw for the visible range: those that overlap it.
 *
 * The API's `start_date` / `end_date` keep events lying inside a window (starting on or after it
 * starts, ending on or before it ends), which would drop an event running across an edge of the view;
 * `ends_after` / `starts_before` select the overlapping ones. Its date filters compare each event's own
 * wall times (as the reference does), not instants, so the window asked for is the visible one widened
 * by the largest UTC offsets (14 h each way), and the events are then kept by their UTC instants here.
 */
const ZONE_MARGIN_MS = 14 * 3600_000;
const wallString = (d: Date) => d.toISOString().slice(0, 19).replace('T', ' ');
const localDate = (d: Date) =>
  `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;

function overlaps(e: CalEvent, start: Date, end: Date): boolean {
  if (e.all_day)
    return e.start_date.slice(0, 10) < localDate(end) && e.end_date.slice(0, 10) >= localDate(start);
  return utcInstant(e.utc_end_date ?? '') > start && utcInstant(e.utc_start_date ?? '') < end;
}

async function fetchEvents(info: EventSourceFuncArg): Promise<EventInput[]> {
  inFlight?.abort();
  const controller = new AbortController();
  inFlight = controller;
  const query = {
    ...apiFilters(state, signedIn()),
    ends_after: wallString(new Date(info.start.getTime() - ZONE_MARGIN_MS)),
    starts_before: wallString(new Date(info.end.getTime() + ZONE_MARGIN_MS)),
    strict_dates: true,
    per_page: 50,
  };
  try {
    const events = (await listAll('listEvents', { query, signal: controller.signal })).filter((e) =>
      overlaps(e, info.start, info.end),
    );
    await coloursReady;
    // Read once the answer is in: the view the range was fetched for is the one drawn by then.
    const timeGrid = (calendar ? calendar.view.type : state.view).startsWith('timeGrid');
    return events.map((e) => toInputEvent(e, timeGrid));
  } catch (e) {
    if ((e as Error).name === 'AbortError') return [];
    status.failed((e as Error).message);
    if (e instanceof ApiError && e.status === 401) signOut('Your token was refused; sign in again.');
    return [];
  }
}

// ---- Dialogs ---------------------------------------------------------------------------------------

/** An event's read for its detail, by ID or slug. */
const readEvent = (ref: { id: string } | { slug: string }) =>
  'id' in ref
    ? cal.getEvent({ path: { id: Number(ref.id) } })
    : cal.getEventBySlug({ path: { slug: ref.slug } });

/** Opens an event's detail; `read` is its read when already begun (an event's page starts it early). */
async function showDetail(ref: { id: string } | { slug: string }, read = readEvent(ref)): Promise<void> {
  const dialog = $<HTMLDialogElement>('detail');
  let e: CalEvent;
  let etag: string | null;
  try {
    ({ data: e, etag } = await read);
  } catch (err) {
    notice(`Could not open the event: ${(err as Error).message}`);
    if ('slug' in ref && eventSlugOf()) history.replaceState(null, '', calendarUrl());
    return;
  }
  showEventAddress(e);
  $('detail-title').textContent = e.title;
  $('detail-body').replaceChildren(renderDetail(e));
  const actions = $('detail-actions');
  actions.replaceChildren();
  if (signedIn()) {
    const button = (label: string, action: () => Promise<void>) => {
      const b = el('button', { type: 'button' }, label);
      b.addEventListener('click', () => void action());
      return b;
    };
    if (e.status === 'trash')
      actions.append(button('Restore as draft', () => changeStatus(e, 'restore', etag)));
    else {
      actions.append(
        button('Edit', async () => {
          dialog.close();
          openEditor(e, {}, etag);
        }),
      );
      actions.append(button('Move to trash', () => changeStatus(e, 'trash', etag)));
    }
  }
  actions.append(Object.assign(el('button', { type: 'button', 'data-close': '' }, 'Close')));
  if (!dialog.open) dialog.showModal();
}

/**
 * Trash is DELETE (without force); restoring is an update of the status (decisions §6). Trashing an
 * occurrence of a series asks which of its events first; a restore brings back the one occurrence.
 */
async function changeStatus(e: CalEvent, to: 'trash' | 'restore', etag: string | null): Promise<void> {
  const scope = to === 'trash' && e.series_id != null ? await askScope('trash', e.title) : undefined;
  if (scope === null) return;
  // A single event's trash asks first (an occurrence's question of scope is its confirmation).
  if (to === 'trash' && !scope && !(await confirmTrash(e.title))) return;
  try {
    let trashed: string | null = null;
    // A series' part trashed comes back as a whole (series-undo.ts): what it leaves cancelled is read first.
    const series =
      to === 'trash' && (scope === 'all' || scope === 'following') ? await beforeSeriesTrash(e, scope) : null;
    if (to === 'trash')
      ({ etag: trashed } = await cal.deleteEvent({
        path: { id: e.id },
        ifMatch: etag,
        ...(scope ? { query: { scope } } : {}),
      }));
    else await cal.updateEvent({ path: { id: e.id }, body: { status: 'draft' }, ifMatch: etag });
    $<HTMLDialogElement>('detail').close();
    // One event (or one occurrence) comes back by its status; a series' part by its status for all of it.
    if (series)
      offerUndo(
        `“${e.title}” and the series' ${scope === 'all' ? 'other' : 'following'} events moved to the trash.`,
        async () => {
          const cancelled = await series.undo(trashed);
          calendar.refetchEvents();
          return `“${e.title}” and the series are back (${statusLabel(e.status)})${cancelled ? `; ${cancelled} cancelled before ${cancelled === 1 ? 'stays' : 'stay'} in the trash` : ''}.`;
        },
      );
    else if (to === 'trash' && (!scope || scope === 'this'))
      offerUndo(`“${e.title}” moved to the trash.`, async () => {
        await cal.updateEvent({ path: { id: e.id }, body: { status: e.status }, ifMatch: trashed });
        calendar.refetchEvents();
        return `“${e.title}” is back (${statusLabel(e.status)}).`;
      });
    else notice(to === 'trash' ? `“${e.title}” moved to the trash.` : `“${e.title}” restored as a draft.`);
    calendar.refetchEvents();
  } catch (err) {
    notice(`Could not change “${e.title}”: ${(err as Error).message}`);
  }
}

function signOut(message = 'Signed out.'): void {
  token.clear();
  renderAccount();
  notice(message);
  if (state.trash) state = { ...state, trash: false };
  writeFilters();
  calendar.refetchEvents();
}

function wireDialogs(): void {
  for (const d of Array.from(document.querySelectorAll('dialog'))) {
    d.addEventListener('click', (ev) => {
      const target = ev.target as HTMLElement;
      if (target.closest('[data-close]')) d.close();
    });
  }
  $('sign-in').addEventListener('click', () => {
    $('token-error').hidden = true;
    $<HTMLDialogElement>('signin').showModal();
    $(signInConfig ? 'signin-provider' : 'token').focus();
  });
  $('signin-form').addEventListener('submit', (ev) => {
    ev.preventDefault();
    const t = $<HTMLTextAreaElement>('token')
      .value.trim()
      .replace(/^Bearer\s+/i, '');
    if (t.split('.').length !== 3) {
      const err = $('token-error');
      err.textContent = 'That is not a token: it should be three parts separated by dots.';
      err.hidden = false;
      $('token').setAttribute('aria-describedby', 'token-error');
      return;
    }
    token.set(t);
    $<HTMLDialogElement>('signin').close();
    renderAccount();
    notice('Signed in.');
    calendar.refetchEvents();
  });
  $('signin-provider').addEventListener('click', () => {
    if (signInConfig) void beginSignIn(signInConfig);
  });
  $('sign-out').addEventListener('click', () => {
    signOut();
    const away = signOutUrl(signInConfig);
    if (away) location.assign(away);
  });
  $('new-event').addEventListener('click', () => {
    const start = calendar.getDate();
    start.setHours(18, 0, 0, 0);
    const pad = (n: number) => String(n).padStart(2, '0');
    const local = (d: Date) =>
      `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:00`;
    const end = new Date(start.getTime() + 2 * 3600_000);
    openEditor(null, { start: toInput(local(start)), end: toInput(local(end)) });
  });
  $('event-form').addEventListener('submit', (ev) => {
    ev.preventDefault();
    void saveEditor().then((saved) => {
      if (!saved) return;
      notice(
        saved.status === 'publish'
          ? `Saved “${saved.title}”.`
          : `Saved “${saved.title}” (${statusLabel(saved.status)}).`,
      );
      calendar.gotoDate(saved.start_date.slice(0, 10));
      calendar.refetchEvents();
    });
  });
}

function wireFilters(): void {
  const form = $<HTMLFormElement>('filters');
  const apply = () => {
    readFilters();
    updateSubscribe();
    showFilterCount();
    syncUrl(true);
    calendar.refetchEvents();
  };
  form.addEventListener('submit', (ev) => {
    ev.preventDefault();
    apply();
  });
  // Selects and boxes apply at once; the search box on Enter / Apply.
  form.addEventListener('change', (ev) => {
    if ((ev.target as HTMLElement).id !== 'f-search') apply();
  });
  $('f-clear').addEventListener('click', () => {
    state = {
      ...state,
      search: '',
      category: '',
      tag: '',
      venue: '',
      organizer: '',
      featured: false,
      trash: false,
      series: '',
    };
    writeFilters();
    syncUrl(true);
    calendar.refetchEvents();
  });
  window.addEventListener('popstate', () => {
    // Forward to an event's address opens it again; Back from it closes it.
    const slug = eventSlugOf();
    if (slug) {
      void showDetail({ slug });
      return;
    }
    if (openSlug) {
      openSlug = null;
      document.title = calendarTitle;
      $<HTMLDialogElement>('detail').close();
    }
    state = readState(location.search, calendarBase);
    writeFilters();
    calendar.changeView(state.view, state.date || undefined);
    calendar.refetchEvents();
  });
}

async function start(): Promise<void> {
  // An event's page opens the calendar at the event's day, with the event open: its read begins now,
  // beside the calendar's start, not after it (the detail opens a round trip sooner).
  const eventPage = eventSlugOf();
  const eventRead = eventPage ? readEvent({ slug: eventPage }) : undefined;
  // Its failure is the detail's to tell, when it opens (not an unhandled rejection meanwhile).
  eventRead?.catch(() => undefined);
  // FullCalendar's labels in the browser's language: its locale file, fetched before the first draw.
  const locale = await calendarLocale();
  renderAccount();
  const recordDate = document.querySelector<HTMLElement>('#record[data-kind="event"]')?.dataset.date;
  if (eventPage && !state.date && recordDate) state = { ...state, date: recordDate };
  const bad = badDate();
  if (bad) notice(`“${bad}” in the address is not a date of the calendar: showing today instead.`);
  const narrow = window.matchMedia('(max-width: 600px)').matches;
  // A phone opens on the list unless the URL names a view.
  if (narrow && !new URLSearchParams(location.search).has('view')) state = { ...state, view: 'listMonth' };
  let rendered = false;
  let wasTimeGrid: boolean | null = null;
  let hourPending = false;
  const legend = legendElement();
  // FullCalendar starts loading in its constructor, before `calendar` is set.
  const showView = () => {
    if (!calendar) return;
    status.shown();
    renderLegend(legend, calendar);
  };
  status = viewStatus({
    status: $('status'),
    calendarEl: $('calendar'),
    calendar: () => calendar,
    retry: () => calendar.refetchEvents(),
    filtered: () => activeFilters() > 0,
    clearFilters: () => $('f-clear').click(),
  });
  calendar = new Calendar($('calendar'), {
    plugins: [dayGridPlugin, timeGridPlugin, listPlugin],
    initialView: state.view,
    initialDate: state.date || undefined,
    timeZone: 'local',
    locale,
    height: 'auto',
    // A one-hour event from 23:30 to 00:30 is drawn on its first day alone (the default, 00:00, drew
    // two); a timed event ending before 06:00 does not reach into that day in the month view.
    nextDayThreshold: `${String(NEXT_DAY_THRESHOLD_H).padStart(2, '0')}:00:00`,
    firstDay: 1,
    nowIndicator: true,
    eventInteractive: true,
    dayMaxEvents: narrow ? 2 : 4,
    // One time format everywhere (format.ts): the browser's language picks 12 or 24 hours.
    eventTimeFormat: TIME_FORMAT,
    slotLabelFormat: TIME_FORMAT,
    headerToolbar: narrow
      ? { left: 'prev,next', center: 'title', right: 'today' }
      : {
          left: 'prev,next today',
          center: 'title',
          right: 'dayGridMonth,timeGridWeek,timeGridDay,listMonth',
        },
    footerToolbar: narrow ? { center: 'dayGridMonth,timeGridWeek,timeGridDay,listMonth' } : undefined,
    buttonText: {
      listMonth: (typeof locale === 'object' && locale.buttonText?.list) || 'list',
    },
    events: (info, ok, fail) => {
      fetchEvents(info).then(ok, fail);
    },
    loading: (isLoading) => {
      if (isLoading) return status.loading();
      status.settled();
      if (hourPending) scrollToOpeningHour($('calendar'));
      hourPending = false;
    },
    eventsSet: () => showView(),
    eventDidMount: (arg) => {
      // A chip cut short in the month view still names the event (a tooltip), with its time.
      arg.el.title = arg.timeText ? `${arg.timeText} ${arg.event.title}` : arg.event.title;
      // The list view says where.
      const venue = arg.event.extendedProps.venue as string;
      const cell = arg.el.querySelector('.fc-list-event-title');
      if (venue && cell) cell.append(el('span', { class: 'event-venue' }, venue));
    },
    // Day cells are named by their day number's link, whose name ("12 March 2031") is not the cell's
    // visible text (axe: label-content-name-mismatch); a grid cell needs no name of its own.
    dayCellDidMount: (arg) => arg.el.removeAttribute('aria-labelledby'),
    // No anchor without an address (crawlable.ts).
    dayHeaderDidMount: (arg) => unlinkDayLabels(arg.el),
    moreLinkDidMount: (arg) => moreLinkIsButton(arg.el),
    eventClick: (arg) => {
      arg.jsEvent.preventDefault();
      void showDetail({ id: arg.event.id });
    },
    datesSet: (arg) => {
      const d = arg.view.currentStart;
      const pad = (n: number) => String(n).padStart(2, '0');
      state = {
        ...state,
        view: arg.view.type,
        date: `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`,
      };
      // The view the page opens on replaces its address; each one browsed after is an entry of its own.
      syncUrl(rendered);
      rendered = true;
      // Long timed events are drawn differently in the week and day views (toInputEvent): a change
      // between those and the others asks again; otherwise the count follows the new view.
      const timeGrid = arg.view.type.startsWith('timeGrid');
      frameHours($('calendar'), timeGrid);
      // At 08:00 now, and again once the events are in (the all-day row grows with them).
      hourPending = timeGrid;
      if (timeGrid) scrollToOpeningHour($('calendar'));
      if (wasTimeGrid !== null && timeGrid !== wasTimeGrid) calendar.refetchEvents();
      else showView();
      wasTimeGrid = timeGrid;
    },
  });
  calendar.render();
  // The toolbar's arrow icons are decoration inside labelled buttons (axe: role-img-alt).
  const hideIcons = () => {
    $('calendar')
      .querySelectorAll('.fc-icon:not([aria-hidden])')
      .forEach((i) => i.setAttribute('aria-hidden', 'true'));
  };
  hideIcons();
  new MutationObserver(hideIcons).observe($('calendar'), { childList: true, subtree: true });
  // The rest of the start in tasks of their own: none of them long enough to hold up a click or a key.
  await yieldToMain();
  wireDialogs();
  wireFilters();
  $('detail').addEventListener('close', leaveEventAddress);
  setUpSubscribe(notice);
  // Timed events are drawn in the viewer's zone: the page says which (issue 29).
  $('zone-note').textContent = `Times are shown in your time zone, ${viewerZone()}.`;
  $('calendar').before(legend);
  filterCount = setUpFilterToggle($('filters'));
  if (eventPage) void showDetail({ slug: eventPage }, eventRead);
  await yieldToMain();
  setUpRepeat();
  setUpFieldChecks();
  setUpDayClick($('calendar'), signedIn, (at) => openEditor(null, at));
  for (const id of ['e-organizer', 'e-categories', 'e-tags']) enhanceMultiSelect($(id));
  setUpInlineCreate('venue', $('e-venue'), () => $('e-venue').focus());
  setUpInlineCreate('organizer', $('e-organizer'), () => {
    refreshMultiSelects();
    $('e-organizer-search').focus();
  });
  writeFilters();
  loadOptions().catch((e) => {
    setCategories([]);
    notice(`Could not load the filters: ${(e as Error).message}`);
  });
  void setUpSignIn();
}

/** Gives the main thread back to the browser for a moment (what is queued, input among it, runs first). */
const yieldToMain = () => new Promise<void>((ok) => setTimeout(ok, 0));

/** Offers the sign-in page where there is one, and finishes a sign-in that came back to this page. */
async function setUpSignIn(): Promise<void> {
  signInConfig = await loadSignInConfig();
  $('signin-hosted').hidden = !signInConfig;
  if (signInConfig) $('signin-provider').textContent = `Sign in with ${signInConfig.provider}`;
  if (!signInCallback) return;
  notice(
    await completeSignIn(signInConfig, signInCallback).catch((e: Error) => `Sign-in failed: ${e.message}`),
  );
  renderAccount();
  calendar.refetchEvents();
}

if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', () => void start());
else void start();

// For the browser tests and for curious developers: the calendar instance.
(window as unknown as { calendarPage: { calendar: () => Calendar } }).calendarPage = {
  calendar: () => calendar,
};

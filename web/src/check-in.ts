import { ApiError, type Attendee, type CalEvent, cal, pageError } from './api';
import {
  type CheckInCode,
  checkInCounts,
  checkInOutcome,
  type CheckInRefusal,
  readCheckInCode,
  typedCheckInCode,
} from './check-in-code';
import { el } from './detail';
import { eventTickets } from './tickets-dialog';

/**
 * The door's check-in for one event (issue 42), made for a phone: the attendee number and security code
 * typed (or typed by a keyboard-like scanner: the QR address in the first field), or the confirmation's
 * QR code scanned with the camera where the browser offers both BarcodeDetector and getUserMedia
 * (feature-detected; never required). Each check-in is POST /qr with the event's ID, so an attendee of
 * another event is refused; the result is told large and announced (checked in, already checked in,
 * not found, code not valid, not going). The rules are check-in-code.ts's.
 */

interface DetectedBarcode {
  rawValue: string;
}
/** The Shape Detection API's barcode detector (not in TypeScript's DOM library yet). */
interface BarcodeDetectorClass {
  new (o?: { formats: string[] }): { detect(source: HTMLVideoElement): Promise<DetectedBarcode[]> };
  getSupportedFormats?(): Promise<string[]>;
}
const detectorClass = () => (window as unknown as { BarcodeDetector?: BarcodeDetectorClass }).BarcodeDetector;

/** Whether this browser may scan: a barcode detector and a camera to ask for. */
export const canScan = (): boolean => !!detectorClass() && !!navigator.mediaDevices?.getUserMedia;

/** The same code is not checked in again while it stays in front of the camera. */
const SAME_CODE_MS = 4000;

export interface ManagePart {
  element: HTMLElement;
  /** Where the focus goes when the view opens. */
  focus(): void;
  /** The view closes: the camera stops. */
  stop(): void;
}

export function checkInView(e: CalEvent): ManagePart {
  const counts = el('p', { class: 'hint', id: 'check-in-counts', 'aria-live': 'polite' });
  const idInput = el('input', {
    id: 'ci-id',
    name: 'ticket_id',
    type: 'text',
    inputmode: 'numeric',
    autocomplete: 'off',
    enterkeyhint: 'next',
    'aria-describedby': 'ci-hint',
  });
  const codeInput = el('input', {
    id: 'ci-code',
    name: 'security_code',
    type: 'text',
    autocomplete: 'off',
    autocapitalize: 'off',
    spellcheck: 'false',
    enterkeyhint: 'go',
  });
  const submit = el('button', { type: 'submit', id: 'ci-submit' }, 'Check in');
  const result = el('div', {
    id: 'check-in-result',
    class: 'check-result',
    'aria-live': 'assertive',
    'aria-atomic': 'true',
    'data-role': 'check-in-result',
  });
  const form = el(
    'form',
    { id: 'check-in-form', class: 'check-in-form', novalidate: '', 'aria-label': 'Check in by code' },
    el('div', { class: 'field' }, el('label', { for: 'ci-id' }, 'Attendee number'), idInput),
    el('div', { class: 'field' }, el('label', { for: 'ci-code' }, 'Security code'), codeInput),
    el('div', { class: 'dialog-actions' }, submit),
    el(
      'p',
      { class: 'hint', id: 'ci-hint' },
      'Both are in the attendee’s confirmation e-mail. A scanner that types may put the whole QR code in the first field.',
    ),
  );
  const element = el('div', { class: 'check-in', 'data-view': 'check-in' }, counts);

  const refreshCounts = () =>
    eventTickets(e.id).then(
      (tickets) => (counts.textContent = checkInCounts(tickets)),
      () => undefined,
    );
  void refreshCounts();

  const show = (kind: string, title: string, detail: string) => {
    result.dataset.kind = kind;
    result.replaceChildren(el('strong', { class: 'check-title' }, title), el('p', {}, detail));
  };
  let busy = false;
  async function checkIn(code: CheckInCode): Promise<void> {
    busy = true;
    submit.disabled = true;
    show('pending', 'Checking…', `Attendee ${code.ticket_id}`);
    try {
      const { data } = await cal.checkInByQr({ body: { ...code, event_id: e.id } });
      const outcome = checkInOutcome(code, { attendee: data.attendee as Attendee });
      show(outcome.kind, outcome.title, outcome.detail);
      form.reset();
      void refreshCounts();
    } catch (err) {
      const error = err instanceof ApiError ? err : pageError((err as Error).message);
      const refusal: CheckInRefusal = {
        status: error.status,
        code: error.code,
        message: error.message,
        attendee: (error.body.data as { attendee?: Attendee } | undefined)?.attendee,
      };
      const outcome = checkInOutcome(code, refusal);
      show(outcome.kind, outcome.title, outcome.detail);
    } finally {
      busy = false;
      submit.disabled = false;
    }
  }

  form.addEventListener('submit', (ev) => {
    ev.preventDefault();
    if (busy) return;
    const code = typedCheckInCode(idInput.value, codeInput.value);
    if (!code) {
      show(
        'invalid',
        'Type both',
        'The attendee number (digits) and the security code, as the confirmation gives them.',
      );
      (idInput.value.trim() ? codeInput : idInput).focus();
      return;
    }
    void checkIn(code).then(() => idInput.focus());
  });

  const scanner = canScan()
    ? scanPart(checkIn, (code) => {
        idInput.value = String(code.ticket_id);
        codeInput.value = code.security_code;
      })
    : null;
  if (scanner) element.append(scanner.element);
  element.append(form, result);
  return {
    element,
    focus: () => idInput.focus(),
    stop: () => scanner?.stop(),
  };
}

/** The camera's part: a button that starts and stops it, the preview and what it says. */
function scanPart(checkIn: (code: CheckInCode) => Promise<void>, fill: (code: CheckInCode) => void) {
  const button = el('button', { type: 'button', id: 'ci-scan', 'aria-pressed': 'false' }, 'Scan a QR code');
  const video = el('video', { id: 'ci-video', muted: '', playsinline: '', 'aria-label': 'Camera' });
  video.hidden = true;
  const status = el('p', { class: 'hint', id: 'ci-scan-status', role: 'status' });
  let stream: MediaStream | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let last = { value: '', at: 0 };

  const stop = () => {
    clearTimeout(timer);
    timer = undefined;
    for (const track of stream?.getTracks() ?? []) track.stop();
    stream = null;
    video.srcObject = null;
    video.hidden = true;
    button.textContent = 'Scan a QR code';
    button.setAttribute('aria-pressed', 'false');
  };
  const start = async () => {
    const Detector = detectorClass()!;
    const formats = await Detector.getSupportedFormats?.().catch(() => undefined);
    if (formats && !formats.includes('qr_code')) {
      status.textContent = 'This browser’s scanner does not read QR codes: type the code instead.';
      button.hidden = true;
      return;
    }
    try {
      stream = await navigator.mediaDevices.getUserMedia({
        video: { facingMode: 'environment' },
        audio: false,
      });
    } catch (err) {
      status.textContent = `The camera could not be started (${(err as Error).message}): type the code instead.`;
      return;
    }
    video.srcObject = stream;
    video.hidden = false;
    await video.play().catch(() => undefined);
    button.textContent = 'Stop scanning';
    button.setAttribute('aria-pressed', 'true');
    status.textContent = 'Point the camera at the QR code of the confirmation.';
    const detector = new Detector({ formats: ['qr_code'] });
    const tick = async () => {
      if (!stream) return;
      try {
        for (const { rawValue } of await detector.detect(video)) {
          if (rawValue === last.value && Date.now() - last.at < SAME_CODE_MS) continue;
          last = { value: rawValue, at: Date.now() };
          const code = readCheckInCode(rawValue);
          if (!code) {
            status.textContent = 'That QR code is not a confirmation’s: type the code instead.';
            continue;
          }
          fill(code);
          await checkIn(code);
        }
      } catch {
        // A frame the detector could not read yet (the camera starting): the next one may.
      }
      if (stream) timer = setTimeout(() => void tick(), 250);
    };
    void tick();
  };
  button.addEventListener('click', () => {
    if (stream) {
      stop();
      status.textContent = 'The camera is off.';
    } else void start();
  });
  return { element: el('div', { class: 'scan' }, button, status, video), stop };
}

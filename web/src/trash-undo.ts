/**
 * Trash asks first and can be undone (issue 29): a confirmation before an event goes to the trash (an
 * occurrence of a series is asked its scope instead, scope.ts), then an *Undo* for a few seconds, which
 * restores the event by updating its status back (decisions §6: a trashed record is restored so).
 */
const UNDO_MS = 10_000;

function node<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Partial<HTMLElementTagNameMap[K]> = {},
  ...children: Array<Node | string>
): HTMLElementTagNameMap[K] {
  const n = Object.assign(document.createElement(tag), props);
  n.append(...children);
  return n;
}

let dialog: HTMLDialogElement | null = null;

/** Resolves true when the user confirms moving the event titled `title` to the trash. */
export function confirmTrash(title: string): Promise<boolean> {
  if (!dialog) {
    const ok = node('button', { type: 'submit', value: 'ok', id: 'trash-ok', textContent: 'Move to trash' });
    const cancel = node('button', { type: 'submit', value: 'cancel', textContent: 'Cancel' });
    const form = node(
      'form',
      { method: 'dialog' },
      node('h2', { id: 'trash-title', textContent: 'Move to the trash?' }),
      node('p', { id: 'trash-question' }),
      node('div', { className: 'dialog-actions' }, ok, cancel),
    );
    dialog = node('dialog', { id: 'trash-confirm' }, form);
    dialog.setAttribute('aria-labelledby', 'trash-title');
    dialog.setAttribute('aria-describedby', 'trash-question');
    document.body.append(dialog);
  }
  const d = dialog;
  d.querySelector('#trash-question')!.textContent =
    `“${title}” goes to the trash: visitors no longer see it. You can undo this for a few seconds, and restore it from the trash later.`;
  d.returnValue = '';
  return new Promise((resolve) => {
    d.addEventListener('close', () => resolve(d.returnValue === 'ok'), { once: true });
    d.showModal();
    d.querySelector<HTMLButtonElement>('#trash-ok')!.focus();
  });
}

let bar: HTMLElement | null = null;
let timer: ReturnType<typeof setTimeout> | undefined;

/**
 * Says `text` with an *Undo* button for a few seconds (longer while the pointer or the focus is on it,
 * so nobody loses it while reaching for it); `undo` restores and answers what to say then.
 */
export function offerUndo(text: string, undo: () => Promise<string>): void {
  if (!bar) {
    bar = node('div', { id: 'undo-bar', className: 'undo-bar', hidden: true });
    bar.setAttribute('role', 'status');
    const b = bar;
    const pause = () => clearTimeout(timer);
    const resume = () => {
      if (!b.hidden && !b.contains(document.activeElement)) hideLater();
    };
    b.addEventListener('pointerenter', pause);
    b.addEventListener('focusin', pause);
    b.addEventListener('pointerleave', resume);
    b.addEventListener('focusout', () => setTimeout(resume));
    document.body.append(b);
  }
  const b = bar;
  const button = node('button', { type: 'button', textContent: 'Undo' });
  button.addEventListener('click', () => {
    button.disabled = true;
    clearTimeout(timer);
    void undo()
      .catch((e: Error) => `Could not undo: ${e.message}`)
      .then((said) => {
        b.replaceChildren(node('span', { textContent: said }));
        hideLater();
      });
  });
  b.replaceChildren(node('span', { textContent: text }), ' ', button);
  b.hidden = false;
  // Where the focus was (the event's detail) is gone: the way back is the next stop.
  button.focus();
  hideLater();
}

function hideLater(): void {
  clearTimeout(timer);
  timer = setTimeout(() => {
    if (bar) bar.hidden = true;
  }, UNDO_MS);
}

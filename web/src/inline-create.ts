import { ApiError, cal, fieldMessages, pageError } from './api';

/**
 * A venue or an organizer created from the event form (issue 29): *New venue…* / *New organizer…* opens
 * a small dialog over the form (a form of its own: forms do not nest) that POSTs /venues or /organizers
 * and selects the new record in the event form; the API's messages show under the fields they name.
 */
type Kind = 'venue' | 'organizer';

const FIELDS: Record<Kind, Array<[name: string, label: string, type: string]>> = {
  venue: [
    ['venue', 'Name (required)', 'text'],
    ['address', 'Address', 'text'],
    ['city', 'City', 'text'],
    ['country', 'Country', 'text'],
  ],
  organizer: [
    ['organizer', 'Name (required)', 'text'],
    ['email', 'E-mail', 'email'],
    ['website', 'Website', 'url'],
  ],
};

function node<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Partial<HTMLElementTagNameMap[K]> = {},
  ...children: Array<Node | string>
): HTMLElementTagNameMap[K] {
  const n = Object.assign(document.createElement(tag), props);
  n.append(...children);
  return n;
}

/** Adds the button after `select`'s field and its dialog; `added` runs once the new record is selected. */
export function setUpInlineCreate(kind: Kind, select: HTMLSelectElement, added: () => void): void {
  const id = `new-${kind}`;
  const error = node('p', { id: `${id}-error`, className: 'error', hidden: true });
  error.setAttribute('role', 'alert');
  const fields = FIELDS[kind].map(([name, label, type]) => {
    const inputId = `${id}-${name}`;
    const wrap = node(
      'div',
      { className: 'field wide' },
      node('label', { htmlFor: inputId, textContent: label }),
      node('input', { id: inputId, name, type, autocomplete: 'off' }),
    );
    wrap.dataset.field = name;
    return wrap;
  });
  const title = `New ${kind}`;
  const form = node(
    'form',
    { method: 'dialog', noValidate: true },
    node('h2', { id: `${id}-title`, textContent: title }),
    error,
    ...fields,
    node(
      'div',
      { className: 'dialog-actions' },
      node('button', { type: 'submit', id: `${id}-save`, textContent: `Add ${kind}` }),
      node('button', { type: 'button', value: 'cancel', textContent: 'Cancel' }),
    ),
  );
  const dialog = node('dialog', { id }, form);
  dialog.setAttribute('aria-labelledby', `${id}-title`);
  document.body.append(dialog);
  form.querySelector('button[value="cancel"]')!.addEventListener('click', () => dialog.close());

  const clear = () => {
    error.hidden = true;
    for (const p of Array.from(form.querySelectorAll('.field-error'))) p.remove();
    for (const f of Array.from(form.querySelectorAll('[aria-invalid]'))) {
      f.removeAttribute('aria-invalid');
      f.removeAttribute('aria-describedby');
    }
  };
  const show = (e: ApiError) => {
    clear();
    let first: HTMLInputElement | null = null;
    const elsewhere: string[] = [];
    for (const [name, message] of Object.entries(fieldMessages(e))) {
      const input = form.querySelector<HTMLInputElement>(`input[name="${CSS.escape(name)}"]`);
      if (!input) {
        elsewhere.push(message);
        continue;
      }
      const errId = `${id}-err-${name}`;
      input.after(node('p', { id: errId, className: 'field-error', textContent: message }));
      input.setAttribute('aria-invalid', 'true');
      input.setAttribute('aria-describedby', errId);
      first ??= input;
    }
    error.textContent = `Nothing was added: ${[e.message, ...elsewhere].join(' ')}`;
    error.hidden = false;
    (first ?? error).focus();
  };

  form.addEventListener('submit', (ev) => {
    ev.preventDefault();
    const body = Object.fromEntries(
      FIELDS[kind]
        .map(([name]) => [name, (form.elements.namedItem(name) as HTMLInputElement).value.trim()])
        .filter(([name, v]) => v || name === kind),
    );
    const create =
      kind === 'venue'
        ? cal.createVenue({ body: body as { venue: string } })
        : cal.createOrganizer({ body: body as { organizer: string } });
    create
      .then(({ data }) => {
        const name = (data as { venue?: string; organizer?: string })[kind] ?? '';
        select.append(new Option(name, String(data.id), true, true));
        select.dispatchEvent(new Event('change', { bubbles: true }));
        dialog.close();
        added();
      })
      .catch((e: Error) => show(e instanceof ApiError ? e : pageError(e.message)));
  });

  const open = node('button', { type: 'button', className: 'link-button', textContent: `New ${kind}…` });
  open.addEventListener('click', () => {
    form.reset();
    clear();
    dialog.showModal();
    (form.elements.namedItem(kind) as HTMLInputElement).focus();
  });
  select.closest('[data-field]')!.append(open);
}

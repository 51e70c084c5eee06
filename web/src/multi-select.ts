/**
 * A searchable multi-select for the form's organizers, categories and tags (issue 29), instead of a
 * list picked with Ctrl-click. The native `<select multiple>` stays the form's value (hidden), so the
 * form reads and sets it as before; over it: a combobox (type to filter), a listbox of the matches
 * (aria-multiselectable; ↑/↓ move, Enter or Space picks or unpicks, Escape closes) and a chip per
 * chosen item, a button that removes it (Backspace in the empty box removes the last).
 */
const refreshers: Array<() => void> = [];

/** Shows the selects' current choices (after the form set them, or options were added). */
export const refreshMultiSelects = (): void => refreshers.forEach((r) => r());

/** An option's name without the tree's indentation (categories: `  ↳ Jazz`). */
const nameOf = (o: HTMLOptionElement) => o.text.replace(/^[\s\u2003]*(↳\s*)?/, '');

function node<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Partial<HTMLElementTagNameMap[K]> = {},
  attrs: Record<string, string> = {},
): HTMLElementTagNameMap[K] {
  const n = Object.assign(document.createElement(tag), props);
  for (const [k, v] of Object.entries(attrs)) n.setAttribute(k, v);
  return n;
}

export function enhanceMultiSelect(select: HTMLSelectElement): void {
  const id = select.id;
  const label = document.querySelector<HTMLLabelElement>(`label[for="${id}"]`);
  const name = label?.textContent?.trim() ?? id;
  const chips = node('ul', { className: 'chips' }, { 'aria-label': `Chosen ${name.toLowerCase()}` });
  const input = node(
    'input',
    { id: `${id}-search`, type: 'text', autocomplete: 'off', className: 'multi-input' },
    {
      role: 'combobox',
      'aria-autocomplete': 'list',
      'aria-expanded': 'false',
      'aria-controls': `${id}-list`,
    },
  );
  const list = node(
    'ul',
    { id: `${id}-list`, className: 'multi-list', hidden: true },
    { role: 'listbox', 'aria-multiselectable': 'true', 'aria-label': name },
  );
  const none = node('p', { className: 'hint', hidden: true, textContent: `No ${name.toLowerCase()} match.` });
  const box = node('div', { className: 'multi' });
  box.append(chips, input, list, none);
  // The label and the field's description move to the box the user types in.
  if (label) label.htmlFor = input.id;
  for (const a of ['aria-describedby', 'data-describedby']) {
    const v = select.getAttribute(a);
    if (v) input.setAttribute(a, v);
    select.removeAttribute(a);
  }
  select.hidden = true;
  select.tabIndex = -1;
  select.before(box);

  let active: HTMLOptionElement | null = null;
  /** Space picks only after ↑/↓ chose an option; otherwise it is typed (names have spaces). */
  let arrowed = false;
  const options = () => Array.from(select.options);
  const matches = () => {
    const q = input.value.trim().toLowerCase();
    return options().filter((o) => nameOf(o).toLowerCase().includes(q));
  };
  const optionId = (o: HTMLOptionElement) => `${id}-opt-${o.value}`;

  function renderChips(): void {
    chips.replaceChildren(
      ...options()
        .filter((o) => o.selected)
        .map((o) => {
          const b = node('button', { type: 'button', className: 'chip' });
          b.append(
            node('span', { className: 'sr-only', textContent: 'Remove ' }),
            nameOf(o),
            node('span', { textContent: ' ×' }, { 'aria-hidden': 'true' }),
          );
          b.addEventListener('click', () => {
            toggle(o);
            input.focus();
          });
          const li = node('li');
          li.append(b);
          return li;
        }),
    );
  }

  function renderList(): void {
    const found = matches();
    if (active && !found.includes(active)) active = null;
    list.replaceChildren(
      ...found.map((o) => {
        const li = node(
          'li',
          { id: optionId(o), textContent: o.text, className: o === active ? 'active' : '' },
          { role: 'option', 'aria-selected': String(o.selected) },
        );
        li.addEventListener('mousedown', (ev) => ev.preventDefault()); // the box keeps the focus
        li.addEventListener('click', () => {
          active = o;
          toggle(o);
        });
        return li;
      }),
    );
    none.hidden = list.hidden || found.length > 0;
    if (active) {
      input.setAttribute('aria-activedescendant', optionId(active));
      document.getElementById(optionId(active))?.scrollIntoView({ block: 'nearest' });
    } else input.removeAttribute('aria-activedescendant');
  }

  const show = (open: boolean) => {
    list.hidden = !open;
    input.setAttribute('aria-expanded', String(open));
    if (!open) {
      active = null;
      arrowed = false;
    }
    renderList();
  };

  /** Picks or unpicks; the search starts again from the whole list, at the same option. */
  function toggle(o: HTMLOptionElement): void {
    o.selected = !o.selected;
    input.value = '';
    select.dispatchEvent(new Event('change', { bubbles: true }));
    renderChips();
    renderList();
  }

  function move(step: number): void {
    const found = matches();
    if (!found.length) return;
    const at = active ? found.indexOf(active) : -1;
    active = found[(at + step + found.length) % found.length] ?? null;
    arrowed = true;
    renderList();
  }

  input.addEventListener('input', () => {
    arrowed = false;
    active = matches()[0] ?? null;
    show(true);
  });
  input.addEventListener('click', () => show(true));
  input.addEventListener('blur', () => show(false));
  input.addEventListener('keydown', (ev) => {
    const open = !list.hidden;
    if (ev.key === 'ArrowDown' || ev.key === 'ArrowUp') {
      if (!open) show(true);
      move(ev.key === 'ArrowDown' ? 1 : -1);
    } else if (ev.key === 'Enter' && open) {
      if (active) toggle(active);
    } else if (ev.key === ' ' && open && active && (arrowed || !input.value)) {
      toggle(active);
    } else if (ev.key === 'Escape' && open) {
      // Closes the list, not the dialog around it.
      show(false);
    } else if (ev.key === 'Backspace' && !input.value) {
      const last = options()
        .filter((o) => o.selected)
        .pop();
      if (last) toggle(last);
      return;
    } else return;
    ev.preventDefault();
  });

  refreshers.push(() => {
    input.value = '';
    show(false);
    renderChips();
  });
  renderChips();
}

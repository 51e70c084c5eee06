/**
 * The question a save or trash of one occurrence of a series asks first: this event, this and the
 * following ones, or all of them (the API's `scope`, docs/recurrence.md).
 */
export type Scope = 'this' | 'following' | 'all';

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;

const WORDING = {
  save: { question: (t: string) => `Save the changes to which events of “${t}”?`, ok: 'Save' },
  trash: { question: (t: string) => `Move which events of “${t}” to the trash?`, ok: 'Move to trash' },
};

/** Resolves with the chosen scope, or null when the dialog is closed without one. */
export function askScope(action: keyof typeof WORDING, title: string): Promise<Scope | null> {
  const dialog = $<HTMLDialogElement>('scope');
  const form = $<HTMLFormElement>('scope-form');
  $('scope-question').textContent = WORDING[action].question(title);
  $('scope-ok').textContent = WORDING[action].ok;
  $<HTMLInputElement>('scope-this').checked = true;
  return new Promise((resolve) => {
    const done = (scope: Scope | null) => {
      form.removeEventListener('submit', submit);
      dialog.removeEventListener('close', cancel);
      if (dialog.open) dialog.close();
      resolve(scope);
    };
    const submit = (ev: SubmitEvent) => {
      ev.preventDefault();
      const checked = form.querySelector<HTMLInputElement>('input[name="scope"]:checked');
      done((checked?.value as Scope | undefined) ?? 'this');
    };
    const cancel = () => done(null);
    form.addEventListener('submit', submit);
    dialog.addEventListener('close', cancel);
    dialog.showModal();
    $('scope-this').focus();
  });
}

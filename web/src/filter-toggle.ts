/**
 * On a phone the filters fold behind one button (issue 29): open, they took 590 of 844 px before the
 * calendar. The button says how many filters apply; folded, the view's subscribe menu stays. On a wider
 * screen the button is not shown and the filters always are (app.css).
 */
export function setUpFilterToggle(form: HTMLElement): (active: number) => void {
  // The button is the page's own (index.html), so that the first paint already has it in its place.
  const button = document.getElementById('filters-toggle') as HTMLButtonElement;
  let open = !window.matchMedia('(max-width: 600px)').matches;
  let count = 0;
  const render = () => {
    form.classList.toggle('collapsed', !open);
    button.setAttribute('aria-expanded', String(open));
    button.textContent = `${open ? 'Hide the filters' : 'Filters'}${count ? ` (${count} applied)` : ''}`;
  };
  button.addEventListener('click', () => {
    open = !open;
    render();
  });
  render();
  return (active) => {
    count = active;
    render();
  };
}

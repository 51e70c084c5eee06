import { describe, expect, it } from 'vitest';
import { changed, createStore } from '../../web/src/store';

/** The calendar page's one state (web/src/store.ts, web/src/page-state.ts). */
describe('createStore', () => {
  it('merges a change and tells each listener the new and the previous state', () => {
    const store = createStore({ view: 'dayGridMonth', search: '' });
    const heard: Array<[string, string]> = [];
    store.subscribe((s, prev) => heard.push([s.search, prev.search]));
    store.update({ search: 'piano' });
    expect(store.get()).toEqual({ view: 'dayGridMonth', search: 'piano' });
    expect(heard).toEqual([['piano', '']]);
  });

  it('takes a change computed from the state', () => {
    const store = createStore({ n: 1 });
    store.update((s) => ({ n: s.n + 1 }));
    expect(store.get().n).toBe(2);
  });

  it('tells no one of a change that changes nothing', () => {
    const store = createStore({ search: 'piano', featured: false });
    let calls = 0;
    store.subscribe(() => calls++);
    store.update({ search: 'piano' });
    store.update({});
    expect(calls).toBe(0);
  });

  it('keeps each state whole: a listener holds the one it was given', () => {
    const store = createStore({ a: 1, b: 1 });
    const before = store.get();
    store.update({ a: 2 });
    expect(before).toEqual({ a: 1, b: 1 });
    expect(store.get()).toEqual({ a: 2, b: 1 });
  });

  it('stops telling a listener once it unsubscribes', () => {
    const store = createStore({ n: 0 });
    let calls = 0;
    const stop = store.subscribe(() => calls++);
    store.update({ n: 1 });
    stop();
    store.update({ n: 2 });
    expect(calls).toBe(1);
  });

  it('lets a listener change the state again, and the others hear each change', () => {
    const store = createStore({ trash: true, account: 'editor' as string | null });
    const seen: Array<{ trash: boolean; account: string | null }> = [];
    store.subscribe((s) => {
      if (!s.account && s.trash) store.update({ trash: false });
    });
    store.subscribe((s) => seen.push(s));
    store.update({ account: null });
    expect(store.get()).toEqual({ trash: false, account: null });
    expect(seen.at(-1)).toEqual({ trash: false, account: null });
  });
});

describe('changed', () => {
  it('says whether any of the keys differs', () => {
    expect(changed({ a: 1, b: 2 }, { a: 1, b: 3 }, ['a'])).toBe(false);
    expect(changed({ a: 1, b: 2 }, { a: 1, b: 3 }, ['a', 'b'])).toBe(true);
  });
});

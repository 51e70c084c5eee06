/**
 * A small typed store: one state, changed by `update`, read by `get`, watched by `subscribe`. The page
 * keeps its state in one (page-state.ts) and draws from it in one place (render.ts).
 */
export type Listener<S> = (state: S, previous: S) => void;

export interface Store<S> {
  get(): S;
  /** Merges the change in; listeners hear of it only when a value changed (compared with `===`). */
  update(change: Partial<S> | ((state: S) => Partial<S>)): void;
  /** Calls `listener` after each change; returns the way to stop. */
  subscribe(listener: Listener<S>): () => void;
}

export function createStore<S extends object>(initial: S): Store<S> {
  let state = initial;
  const listeners = new Set<Listener<S>>();
  return {
    get: () => state,
    update(change) {
      const patch = typeof change === 'function' ? change(state) : change;
      const keys = Object.keys(patch) as Array<keyof S>;
      if (!keys.some((k) => patch[k] !== state[k])) return;
      const previous = state;
      state = { ...state, ...patch };
      for (const l of [...listeners]) l(state, previous);
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** Whether any of `keys` differs between two states. */
export const changed = <S>(a: S, b: S, keys: ReadonlyArray<keyof S>): boolean =>
  keys.some((k) => a[k] !== b[k]);

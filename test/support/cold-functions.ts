import { vi } from 'vitest';

// Static imports (Vite resolves no variable paths), each run again after vi.resetModules().
const WRITE_FUNCTIONS = {
  'events/create-event': () => import('../../functions/events/create-event'),
  'events/update-event': () => import('../../functions/events/update-event'),
  'venues/create-venue': () => import('../../functions/venues/create-venue'),
  'venues/update-venue': () => import('../../functions/venues/update-venue'),
  'organizers/create-organizer': () => import('../../functions/organizers/create-organizer'),
  'organizers/update-organizer': () => import('../../functions/organizers/update-organizer'),
  'categories/create-category': () => import('../../functions/categories/create-category'),
  'categories/update-category': () => import('../../functions/categories/update-category'),
  'tags/create-tag': () => import('../../functions/tags/create-tag'),
  'tags/update-tag': () => import('../../functions/tags/update-tag'),
};

export type WriteFunction = keyof typeof WRITE_FUNCTIONS;

/**
 * The handler of a write function, imported in a module graph of its own, as a cold Lambda loads it:
 * nothing an earlier request loaded on demand (the sanitizer, the date parser) is loaded for it yet.
 */
export async function coldHandler(fn: WriteFunction): Promise<unknown> {
  vi.resetModules();
  return (await WRITE_FUNCTIONS[fn]()).handler;
}

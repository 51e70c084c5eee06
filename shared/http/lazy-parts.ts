import type * as Formats from 'ajv-formats/dist/formats';
import { isDateField, useDateParser } from '../domain/published-at';
import { hasMarkup, useSanitizer } from '../domain/text';
import { someEntry } from '../domain/walk';
import { isWebField, useWebFormats } from '../domain/web-input';
import type * as Auth from './auth';
import { bundled } from './bundled';

/**
 * The parts of a function that only some requests need, loaded on the first request that needs them
 * instead of at every cold start (docs/cold-start.md). The domain and the services never wait for a
 * load: the handler (handler.ts) has this module load what the request needs before they run.
 */

/** A module a body may need, and what in the body says so (an entry at any depth). */
interface BodyPart {
  needs(key: string, value: unknown): boolean;
  load(): Promise<void>;
  loaded?: boolean;
}

const BODY_PARTS: BodyPart[] = [
  // sanitize-html, for text with markup (shared/domain/text.ts)
  {
    needs: (_key, value) => typeof value === 'string' && hasMarkup(value),
    load: async () => useSanitizer((await import('sanitize-html')).default),
  },
  // ajv-formats' URI and e-mail definitions, for a web field (shared/domain/web-input.ts)
  {
    needs: isWebField,
    load: async () => {
      const mod = (await import('ajv-formats/dist/formats')) as typeof Formats & { default?: typeof Formats };
      // A CommonJS module: Node and tsx give its exports by name, the bundles as the default export.
      useWebFormats(mod.fullFormats ?? mod.default!.fullFormats);
    },
  },
  // the luxon-based date parser, for a sent publication date (shared/domain/published-at.ts)
  {
    needs: isDateField,
    load: async () => useDateParser(await import('../domain/publication-dates')),
  },
];

/**
 * Loads what a request body needs before the service reads it: one walk of the body, which keeps
 * its own stack (a body may nest thousands of levels deep) and stops once every part not yet loaded
 * is known to be needed.
 */
export async function loadForBody(body: unknown): Promise<void> {
  const pending = BODY_PARTS.filter((p) => !p.loaded);
  if (pending.length === 0) return;
  const needed = new Set<BodyPart>();
  someEntry(body, (key, value) => {
    for (const p of pending) if (!needed.has(p) && p.needs(key, value)) needed.add(p);
    return needed.size === pending.length;
  });
  await Promise.all(
    [...needed].map(async (p) => {
      await p.load();
      p.loaded = true;
    }),
  );
}

/** Loads every body part: for writes of bodies the service builds itself (feed imports). */
export async function loadEveryBodyPart(): Promise<void> {
  await Promise.all(
    BODY_PARTS.filter((p) => !p.loaded).map(async (p) => {
      await p.load();
      p.loaded = true;
    }),
  );
}

/*
 * JWT verification (auth.ts) loads with the first request that carries a token. A function whose every
 * request needs one has it in its start instead, where it costs less than a chunk loaded on demand:
 * its build (infra/bundle/build-options.ts) injects bundled-auth.ts, which puts the module in
 * `bundled`, and drops the labelled line below (esbuild dropLabels), so the function's code holds no
 * dynamic import of it and no chunk of it. Without a build (tsx, tests) the line runs.
 */
let authModule = async (): Promise<typeof Auth> => bundled.auth!;
ON_DEMAND_AUTH: authModule = () => import('./auth');

/** The token verifier. */
export const loadAuth = () => authModule();

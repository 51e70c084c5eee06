import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import GithubSlugger from 'github-slugger';
import { marked, type Token, type Tokens } from 'marked';
import { describe, expect, it } from 'vitest';

/**
 * The README and docs/ link to each other and into the source: no relative link may name a missing
 * file, and no anchor a heading that is not there. Anchors are GitHub's heading slugs (github-slugger,
 * duplicates numbered `-1`, `-2`), computed from the heading's text as rendered (code spans keep
 * their text, markup and HTML tags drop out). Links inside code blocks and code spans are not links.
 */

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** The text a heading renders to, which GitHub slugs. */
function plainText(tokens: Token[]): string {
  return tokens
    .map((t) => {
      if (t.type === 'html') return '';
      if ('tokens' in t && t.tokens) return plainText(t.tokens);
      return 'text' in t ? String(t.text) : '';
    })
    .join('');
}

/** The anchors a Markdown text defines: one per heading. */
function anchorsOf(markdown: string): Set<string> {
  const slugger = new GithubSlugger();
  const anchors = new Set<string>();
  void marked.walkTokens(marked.lexer(markdown), (t) => {
    if (t.type === 'heading') anchors.add(slugger.slug(plainText((t as Tokens.Heading).tokens)));
  });
  return anchors;
}

/** Every link and image target of a Markdown text, as written. */
function linksOf(markdown: string): string[] {
  const links: string[] = [];
  void marked.walkTokens(marked.lexer(markdown), (t) => {
    if (t.type === 'link' || t.type === 'image') links.push((t as Tokens.Link).href);
  });
  return links;
}

const isExternal = (href: string) => /^[a-z][a-z0-9+.-]*:/i.test(href) || href.startsWith('//');

/**
 * The dead links of the Markdown files given as repository path -> text. `exists` tells whether a
 * repository path names a file or folder; Markdown targets are looked up in `files` first, so anchors
 * into them are checked too.
 */
function deadLinks(files: Map<string, string>, exists: (path: string) => boolean): string[] {
  const anchors = new Map<string, Set<string>>();
  const anchorsIn = (path: string) => {
    if (!anchors.has(path)) {
      const text = files.get(path) ?? readFileSync(join(ROOT, path), 'utf8');
      anchors.set(path, anchorsOf(text));
    }
    return anchors.get(path)!;
  };
  const dead: string[] = [];
  for (const [file, text] of files)
    for (const href of linksOf(text)) {
      if (isExternal(href)) continue;
      const [pathPart = '', fragment] = href.split('#', 2);
      const target = pathPart
        ? relative(ROOT, resolve(ROOT, dirname(file), decodeURIComponent(pathPart)))
            .split('\\')
            .join('/')
        : file;
      if (target.startsWith('..') || !(files.has(target) || exists(target))) {
        dead.push(`${file}: ${href} (no file ${target})`);
        continue;
      }
      // Anchors are checked in Markdown only; a `#L10` into source code is GitHub's line link.
      if (fragment !== undefined && target.endsWith('.md') && !anchorsIn(target).has(fragment))
        dead.push(`${file}: ${href} (no heading #${fragment} in ${target})`);
    }
  return dead;
}

const existsInRepo = (path: string) => existsSync(join(ROOT, path));

function docFiles(): Map<string, string> {
  const docs = existsSync(join(ROOT, 'docs'))
    ? readdirSync(join(ROOT, 'docs'))
        .filter((f) => f.endsWith('.md') && statSync(join(ROOT, 'docs', f)).isFile())
        .map((f) => `docs/${f}`)
    : [];
  return new Map(['README.md', ...docs].map((p) => [p, readFileSync(join(ROOT, p), 'utf8')]));
}

describe('links in README.md and docs/*.md', () => {
  const files = docFiles();

  it('reads the real files (a sanity check against a vacuous pass)', () => {
    const links = [...files.values()].flatMap(linksOf);

    expect(files.size).toBeGreaterThan(1);
    expect(links.filter((l) => !isExternal(l)).length).toBeGreaterThan(10);
    expect(links.some((l) => l.includes('#'))).toBe(true);
  });

  it('name existing files and existing headings', () => {
    const dead = deadLinks(files, existsInRepo);

    expect(dead, `dead links:\n${dead.join('\n')}`).toEqual([]);
  });
});

describe('the link checker itself', () => {
  const check = (files: Record<string, string>, present: string[] = []) =>
    deadLinks(new Map(Object.entries(files)), (p) => present.includes(p));

  it('accepts links to files, folders and headings, including numbered duplicates', () => {
    const files = {
      'README.md': [
        '# Title',
        '## Setup',
        '## Setup',
        'See [setup](#setup), [again](#setup-1), [guide](docs/guide.md#the-api-v1) and [code](shared/db/keys.ts#L10).',
      ].join('\n'),
      'docs/guide.md': '# The `API` (v1)\n\nBack to [the top](../README.md#title) and [src](../shared/).',
    };

    expect(check(files, ['shared/db/keys.ts', 'shared'])).toEqual([]);
  });

  it('reports a missing file and a missing heading', () => {
    const files = {
      'README.md': '# Title\n\n[gone](docs/gone.md), [no anchor](#nowhere), [other](docs/a.md#nope)',
      'docs/a.md': '# A',
    };

    expect(check(files)).toEqual([
      'README.md: docs/gone.md (no file docs/gone.md)',
      'README.md: #nowhere (no heading #nowhere in README.md)',
      'README.md: docs/a.md#nope (no heading #nope in docs/a.md)',
    ]);
  });

  it('ignores external links and links in code', () => {
    const files = {
      'README.md': [
        '# T',
        '[site](https://example.com/x#y) [mail](mailto:a@example.com) `[no](gone.md)`',
        '```md',
        '[no](gone.md)',
        '```',
      ].join('\n'),
    };

    expect(check(files)).toEqual([]);
  });

  it('slugs headings as GitHub does: code kept, punctuation and tags dropped', () => {
    expect([...anchorsOf('# Event calendar API (`cal/events/v1`)\n## Totals & <b>pages</b>')]).toEqual([
      'event-calendar-api-caleventsv1',
      'totals--pages',
    ]);
  });
});

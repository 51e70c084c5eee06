import type { ChildNode, Element } from 'domhandler';
import { findAll, findOne, textContent } from 'domutils';
import { parseDocument } from 'htmlparser2';
import type { Rec } from './bodies';
import type { Stack } from './stack';

/**
 * A public page as a visitor reads it, by a plain GET of the path of a `url` the API returned (SITE_URL
 * is another host in the tests), parsed: head tags, JSON-LD blocks (parsed, so a block that does not
 * parse throws) and the counts that show a corrupted page (more than one doctype or `<main>`).
 */
export async function publicPage(api: Stack, url: string) {
  const path = url.startsWith('http') ? new URL(url).pathname : url;
  const res = await fetch(`${api.origin}${path}`);
  const html = await res.text();
  const doc = parseDocument(html);
  const all = (test: (e: Element) => boolean) => findAll(test, doc.children as ChildNode[]);
  const one = (test: (e: Element) => boolean) => findOne(test, doc.children as ChildNode[]) ?? undefined;
  const meta = (key: string) =>
    one((e) => e.name === 'meta' && (e.attribs.name === key || e.attribs.property === key))?.attribs.content;
  const jsonLdTexts = all((e) => e.name === 'script' && e.attribs.type === 'application/ld+json').map((e) =>
    textContent(e),
  );
  return {
    res,
    html,
    all,
    one,
    meta,
    jsonLdTexts,
    jsonLd: () => jsonLdTexts.map((t) => JSON.parse(t) as Rec),
    title: () => textContent(all((e) => e.name === 'title')[0] ?? []).trim(),
    doctypes: (html.match(/<!doctype/gi) ?? []).length,
    mains: all((e) => e.name === 'main').length,
  };
}

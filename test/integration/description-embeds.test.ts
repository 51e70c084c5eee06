import { describe, expect, it } from 'vitest';
import { anEvent, aVenue } from '../support/bodies';
import { useStack } from '../support/use-stack';

/**
 * Description embeds (issue 39, decisions §9), through HTTP: an editor's or administrator's
 * description keeps a video or map `<iframe>` from the listed sources, with the allowed attributes
 * only; an author's or contributor's loses it; the public page renders it sandboxed.
 */
const { api, tokens } = await useStack({
  tokens: { administrator: 'administrator', editor: 'editor', author: 'author', contributor: 'contributor' },
});

const VIDEO =
  '<iframe src="https://www.youtube-nocookie.com/embed/abc123" width="560" height="315" title="Trailer" allow="autoplay; encrypted-media" allowfullscreen onload="alert(1)"></iframe>';
const KEPT =
  '<iframe src="https://www.youtube-nocookie.com/embed/abc123" width="560" height="315" title="Trailer" allow="autoplay; encrypted-media" allowfullscreen></iframe>';
const MAP =
  '<iframe src="https://www.google.com/maps/embed?pb=!1m18!1m12" width="600" height="450" loading="lazy"></iframe>';
const OTHER = '<iframe src="https://evil.example/embed/x"></iframe>';

describe('event descriptions', () => {
  it.each([
    ['administrator', `<p>Watch</p>${KEPT}`],
    ['editor', `<p>Watch</p>${KEPT}`],
    ['author', '<p>Watch</p>'],
    ['contributor', '<p>Watch</p>'],
  ] as const)('from an %s store %s', async (role, stored) => {
    const res = await api.post('/events', anEvent({ description: `<p>Watch</p>${VIDEO}${OTHER}` }), {
      token: tokens[role],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.description).toBe(stored);
    const read = await api.get(`/events/${res.body.id}`, { token: tokens.editor });
    expect(read.body.description).toBe(stored);
  });

  it("an author's update of an editor's description drops the embed; leaving it alone keeps it", async () => {
    const made = await api.post('/events', anEvent({ description: MAP, author: 'user-author' }), {
      token: tokens.editor,
    });
    expect(made.body.description).toBe(MAP);
    const retitled = await api.patch(
      `/events/${made.body.id}`,
      { title: 'Retitled' },
      { token: tokens.author },
    );
    expect(retitled.status, JSON.stringify(retitled.body)).toBe(200);
    expect(retitled.body.description).toBe(MAP);
    const rewritten = await api.patch(
      `/events/${made.body.id}`,
      { description: `<p>Map</p>${MAP}` },
      { token: tokens.author },
    );
    expect(rewritten.body.description).toBe('<p>Map</p>');
  });
});

describe('venue descriptions', () => {
  it('keep a map embed from an editor, not from an author', async () => {
    const byEditor = await api.post('/venues', aVenue({ description: MAP }), { token: tokens.editor });
    expect(byEditor.body.description).toBe(MAP);
    const byAuthor = await api.post('/venues', aVenue({ description: `<p>Here</p>${MAP}` }), {
      token: tokens.author,
    });
    expect(byAuthor.body.description).toBe('<p>Here</p>');
  });
});

describe('the public page', () => {
  it('renders an embed sandboxed', async () => {
    const made = await api.post(
      '/events',
      anEvent({ status: 'publish', description: `<p>Watch</p>${VIDEO}` }),
      { token: tokens.editor },
    );
    const res = await fetch(`${api.origin}${new URL(made.body.url).pathname}`);
    expect(res.status).toBe(200);
    const html = await res.text();
    const frames = html.match(/<iframe\b[^>]*>/g) ?? [];
    expect(frames).toEqual([
      '<iframe sandbox="allow-scripts allow-same-origin" src="https://www.youtube-nocookie.com/embed/abc123" width="560" height="315" title="Trailer" allow="autoplay; encrypted-media" allowfullscreen>',
    ]);
  });
});

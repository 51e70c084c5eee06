import { randomUUID } from 'node:crypto';
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { ddb, tableName } from '../../shared/db/client';
import { useStack } from '../support/use-stack';

/**
 * Idempotency-Key on every create, through HTTP against the embedded DynamoDB (Powertools' records
 * and the creation guard live in the same table). A create that timed out and is retried is covered
 * in test/handlers/idempotent-create-timeout.test.ts.
 */
const {
  api,
  tokens: { editor, otherEditor },
} = await useStack({ tokens: { editor: 'editor', otherEditor: ['editor', 'editor-2'] } });

interface Resource {
  path: string;
  body: (name: string) => Record<string, unknown>;
  field: string;
}

const RESOURCES: Resource[] = [
  {
    path: '/events',
    body: (title) => ({ title, start_date: '2031-05-06 10:00:00', end_date: '2031-05-06 12:00:00' }),
    field: 'title',
  },
  { path: '/venues', body: (venue) => ({ venue, city: 'Lyon' }), field: 'venue' },
  { path: '/organizers', body: (organizer) => ({ organizer }), field: 'organizer' },
  { path: '/categories', body: (name) => ({ name }), field: 'name' },
  { path: '/tags', body: (name) => ({ name }), field: 'name' },
];

let n = 0;
const unique = (prefix: string) => `${prefix} ${++n} ${randomUUID().slice(0, 8)}`;

/** Records of the resource named exactly `name`, counted in the table itself (lists filter). */
async function named(r: Resource, name: string): Promise<number> {
  const term = r.path === '/categories' || r.path === '/tags';
  const out = await ddb.send(
    new ScanCommand({
      TableName: tableName(),
      FilterExpression: term ? 'sk = :sk AND #n = :name' : 'sk = :sk AND title = :name',
      ...(term ? { ExpressionAttributeNames: { '#n': 'name' } } : {}),
      ExpressionAttributeValues: { ':sk': term ? 'TERM' : 'POST', ':name': name },
      ConsistentRead: true,
    }),
  );
  return out.Items?.length ?? 0;
}

/** Powertools' records and creation guards in the table, as their keys. */
async function keyRecords(): Promise<string[]> {
  const out = await ddb.send(
    new ScanCommand({
      TableName: tableName(),
      FilterExpression: 'begins_with(pk, :p) OR begins_with(pk, :g)',
      ExpressionAttributeValues: { ':p': 'IDEMPOTENCY#', ':g': 'CREATED#' },
      ConsistentRead: true,
    }),
  );
  return (out.Items ?? []).map((i) => `${i.pk} ${i.sk}`).sort();
}

describe.each(RESOURCES)('POST $path with an Idempotency-Key', (r) => {
  it('creates once: the same key and body get the first answer again (status, body, Location, ETag)', async () => {
    const name = unique('Once');
    const key = randomUUID();
    const first = await api.post(r.path, r.body(name), {
      token: editor,
      headers: { 'idempotency-key': key },
    });
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();

    const again = await api.post(r.path, r.body(name), {
      token: editor,
      headers: { 'idempotency-key': key },
    });
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    // Byte for byte, key order included (the API's bodies have a fixed key order).
    expect(JSON.stringify(again.body)).toBe(JSON.stringify(first.body));
    expect(again.headers.get('location')).toBe(first.headers.get('location'));
    expect(again.headers.get('etag')).toBe(first.headers.get('etag'));
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(await named(r, name)).toBe(1);
  });

  it('answers the same key with another body with 422 rest_idempotency_key_reused, creating nothing', async () => {
    const key = randomUUID();
    const name = unique('First');
    const first = await api.post(r.path, r.body(name), {
      token: editor,
      headers: { 'idempotency-key': key },
    });
    expect(first.status).toBe(201);

    const other = unique('Other');
    const res = await api.post(r.path, r.body(other), { token: editor, headers: { 'idempotency-key': key } });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({
      code: 'rest_idempotency_key_reused',
      message: expect.stringContaining('Idempotency-Key'),
      data: { status: 422 },
    });
    expect(await named(r, other)).toBe(0);
  });

  it('scopes keys to the caller: another user with the same key (and another body) creates their own', async () => {
    const key = randomUUID();
    const mine = await api.post(r.path, r.body(unique('Mine')), {
      token: editor,
      headers: { 'idempotency-key': key },
    });
    const theirs = await api.post(r.path, r.body(unique('Theirs')), {
      token: otherEditor,
      headers: { 'idempotency-key': key },
    });
    expect([mine.status, theirs.status]).toEqual([201, 201]);
    expect(theirs.body.id).not.toBe(mine.body.id);
  });

  it('creates every time without a key, as before', async () => {
    const name = unique('Keyless');
    const a = await api.post(r.path, r.body(name), { token: editor });
    const b = await api.post(r.path, r.body(name), { token: editor });
    if (r.path === '/categories' || r.path === '/tags') {
      // Term names are unique per taxonomy: the second is the usual 400.
      expect([a.status, b.status]).toEqual([201, 400]);
    } else {
      expect([a.status, b.status]).toEqual([201, 201]);
      expect(await named(r, name)).toBe(2);
    }
  });
});

describe('Idempotency-Key details', () => {
  const events = RESOURCES[0]!;

  it('treats bodies that differ only in key order, or JSON and form encodings of one body, as the same', async () => {
    const key = randomUUID();
    const name = unique('Ordered');
    const body = events.body(name);
    const reversed = Object.fromEntries(Object.entries(body).reverse());
    const first = await api.post('/events', body, { token: editor, headers: { 'idempotency-key': key } });
    const again = await api.post('/events', reversed, { token: editor, headers: { 'idempotency-key': key } });
    const form = await api.call('POST', '/events', {
      form: body as Record<string, string>,
      token: editor,
      headers: { 'idempotency-key': key },
    });
    expect([first.status, again.status, form.status]).toEqual([201, 201, 201]);
    expect(again.body.id).toBe(first.body.id);
    expect(form.body.id).toBe(first.body.id);
  });

  it('does not keep failures: a rejected create leaves no record of its key and can be sent again, fixed', async () => {
    const key = randomUUID();
    const name = unique('Fixed');
    const before = await keyRecords();
    const bad = await api.post(
      '/events',
      { title: name, start_date: 'not a date', end_date: '2031-05-06 12:00:00' },
      { token: editor, headers: { 'idempotency-key': key } },
    );
    expect(bad.status).toBe(400);
    expect(await keyRecords()).toEqual(before);
    const good = await api.post('/events', events.body(name), {
      token: editor,
      headers: { 'idempotency-key': key },
    });
    expect(good.status).toBe(201);

    // Refused inside the create itself (a term name already taken): Powertools drops its record.
    const taken = unique('Taken');
    expect((await api.post('/tags', { name: taken }, { token: editor })).status).toBe(201);
    const tagKey = randomUUID();
    const beforeTag = await keyRecords();
    const duplicate = await api.post(
      '/tags',
      { name: taken },
      { token: editor, headers: { 'idempotency-key': tagKey } },
    );
    expect(duplicate.status).toBe(400);
    expect(duplicate.body.code).toBe('term_exists');
    expect(await keyRecords()).toEqual(beforeTag);
    const fixed = await api.post(
      '/tags',
      { name: unique('Not taken') },
      { token: editor, headers: { 'idempotency-key': tagKey } },
    );
    expect(fixed.status).toBe(201);
  });

  it('rejects an empty, too long or non-ASCII key with 400 rest_invalid_idempotency_key', async () => {
    for (const key of ['x'.repeat(256), 'clé-été']) {
      const res = await api.post(
        '/tags',
        { name: unique('Bad key') },
        { token: editor, headers: { 'idempotency-key': key } },
      );
      expect(res.status, key).toBe(400);
      expect(res.body.code).toBe('rest_invalid_idempotency_key');
    }
  });

  it('answers a concurrent repeat either with the first answer or 409 rest_idempotency_in_progress, creating once', async () => {
    const key = randomUUID();
    const name = unique('Concurrent');
    const replies = await Promise.all(
      Array.from({ length: 6 }, () =>
        api.post('/venues', { venue: name }, { token: editor, headers: { 'idempotency-key': key } }),
      ),
    );
    const ids = new Set(replies.filter((x) => x.status === 201).map((x) => x.body.id));
    expect(ids.size).toBe(1);
    for (const x of replies.filter((y) => y.status !== 201)) {
      expect(x.status).toBe(409);
      expect(x.body.code).toBe('rest_idempotency_in_progress');
      expect(x.headers.get('retry-after')).toBe('1');
    }
    expect(await named(RESOURCES[1]!, name)).toBe(1);
  });

  it('answers with the record as it was created even after it changed (the stored first answer)', async () => {
    const key = randomUUID();
    const name = unique('Stored');
    const first = await api.post('/tags', { name }, { token: editor, headers: { 'idempotency-key': key } });
    await api.put(`/tags/${first.body.id}`, { description: 'changed since' }, { token: editor });
    const again = await api.post('/tags', { name }, { token: editor, headers: { 'idempotency-key': key } });
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
  });
});

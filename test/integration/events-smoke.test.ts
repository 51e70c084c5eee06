import { afterAll, beforeAll, expect, it } from 'vitest';
import { type Stack, startStack } from '../support/stack';

let api: Stack;
let editor: string;
beforeAll(async () => {
  api = await startStack();
  editor = await api.token('editor');
});
afterAll(() => api.close());

it('smoke', async () => {
  const cat = await api.post('/categories', { name: 'Music' }, { token: editor });
  const res = await api.post('/events', { title: 'Jazz Night', start_date: '2027-01-15 20:00:00', end_date: '2027-01-15 23:00:00', categories: [cat.body.id], cost: '$15', featured: true }, { token: editor });
  console.log(res.status, JSON.stringify(res.body).slice(0, 3000));
  const got = await api.get(`/events/${res.body.id}`);
  console.log(got.status, JSON.stringify(got.body.json_ld));
  const list = await api.get('/events?start_date=2027-01-01&end_date=2027-01-31');
  console.log(list.status, JSON.stringify(list.body).slice(0, 300), list.body.total);
  const list2 = await api.get('/events?categories=music&start_date=2027-01-01');
  console.log(list2.status, list2.body.total, list2.body.events?.length);
  const cats = await api.get('/categories');
  console.log(JSON.stringify(cats.body).slice(0, 300));
  const del = await api.del(`/events/${res.body.id}`, { token: editor });
  console.log(del.status, del.body.status);
  const cats2 = await api.get('/categories');
  console.log(JSON.stringify(cats2.body).slice(0, 300));
  expect(res.status).toBe(201);
});

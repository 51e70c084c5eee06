import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { ddb, tableName } from '../../shared/db/client';
import { keys } from '../../shared/db/keys';
import { measure } from '../support/db-calls';
import { useStack } from '../support/use-stack';

/**
 * Concurrent creates of one name draw their `-N` from the base's counter once they lose a slug claim
 * (shared/repositories/slug-claims.ts). A counter can lag behind the suffixes in use (records written
 * before counters were kept on every claim, a counter restored from an old backup, renames to a
 * `-N`): the losers must not count up through them one transaction at a time (the bench's bulk
 * seeding of repeated titles ran out of attempts this way: a 500).
 */
const {
  api,
  tokens: { editor },
} = await useStack({ tokens: { editor: 'editor' } });

const NAME = 'Lag Hall';
const SERIAL = 30;
const RACERS = 6;

describe('a slug counter behind the suffixes in use', () => {
  it('is moved past them: concurrent creates get distinct slugs in a few attempts each', async () => {
    for (let i = 0; i < SERIAL; i++)
      expect((await api.post('/venues', { venue: NAME }, { token: editor })).status).toBe(201);
    // Started by an early race, when only lag-hall and lag-hall-2 were taken.
    await ddb.send(
      new PutCommand({ TableName: tableName(), Item: { ...keys.slugSequence('venue', 'lag-hall'), n: 2 } }),
    );

    const { result, calls } = await measure(() =>
      Promise.all(
        Array.from({ length: RACERS }, () => api.post('/venues', { venue: NAME }, { token: editor })),
      ),
    );

    expect(result.map((r) => r.status)).toEqual(Array(RACERS).fill(201));
    const slugs = result.map((r) => String(r.body.slug));
    expect(new Set(slugs).size).toBe(RACERS);
    for (const slug of slugs) expect(Number(slug.slice('lag-hall-'.length))).toBeGreaterThan(SERIAL);
    // Each loser draws a suffix or two, where counting up from -3 took an attempt per suffix in use
    // (and MAX_ATTEMPTS of them ran out on a long-lived base): the ID draws, one bump and at most two
    // more counter updates and retried transactions per loser.
    const count = (command: string) => calls.filter((c) => c.command === command).length;
    expect(count('UpdateItemCommand')).toBeLessThanOrEqual(RACERS + 3 * (RACERS - 1));
    expect(count('TransactWriteItemsCommand')).toBeLessThanOrEqual(RACERS + 2 * (RACERS - 1));
  });
});

import { describe, expect, it } from 'vitest';
import type { PostRecord } from '../../shared/domain/records';
import { type ListReads, repositoryReads, withKnownPosts } from '../../shared/services/events/list';

const post = (id: number) => ({ id, type: 'event', slug: `e-${id}` }) as unknown as PostRecord<object>;

describe('withKnownPosts', () => {
  it('answers the records it knows and reads only the others, in one call', async () => {
    const asked: number[][] = [];
    const reads = {
      ...repositoryReads,
      getPosts: async (ids: number[]) => {
        asked.push(ids);
        return new Map(ids.map((id) => [id, post(id)]));
      },
    } as unknown as ListReads;
    const known = post(7);
    const seeded = withKnownPosts(reads, [known]);

    const got = await seeded.getPosts([3, 7, 9]);
    expect([...got.keys()].sort()).toEqual([3, 7, 9]);
    expect(got.get(7)).toBe(known);
    expect(asked).toEqual([[3, 9]]);

    expect((await seeded.getPosts([7])).get(7)).toBe(known);
    expect(asked).toHaveLength(1);
  });
});

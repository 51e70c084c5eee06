import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  indexedQueryWords,
  indexWords,
  MAX_INDEXED_WORD,
  matchesWordStarts,
  wordHead,
} from '../../shared/domain/search';

/**
 * The search index's words (shared/domain/search.ts): what an event stores and what a query looks up.
 * A query word of two or more characters finds an event through the index exactly when it starts a
 * word of the event's texts (decisions §8); the records then decide.
 */
describe('indexWords', () => {
  it('folds, dedupes, drops one-character words and words that start another one', () => {
    expect(indexWords(['Café Jazz, jazzy CAFÉS', 'a b music mus'])).toEqual(['cafes', 'jazzy', 'music']);
  });

  it('cuts long words at MAX_INDEXED_WORD characters without splitting a surrogate pair', () => {
    const long = '𠀀'.repeat(MAX_INDEXED_WORD + 5);
    const [word] = indexWords([long]);
    expect(Array.from(word!)).toHaveLength(MAX_INDEXED_WORD);
    expect(word!.endsWith('𠀀')).toBe(true);
  });

  it('heads a word by its first two characters', () => {
    expect(wordHead('concert')).toBe('co');
    expect(wordHead('𠀀𠀀x')).toBe('𠀀𠀀');
  });
});

describe('indexedQueryWords', () => {
  it('keeps the query words the index can look up', () => {
    expect(indexedQueryWords('Live a MUSIC live')).toEqual(['live', 'music']);
    expect(indexedQueryWords('a b')).toEqual([]);
  });
});

describe('the index finds what the word-start match finds', () => {
  const word = fc.stringMatching(/^[a-zé]{1,8}$/);
  const text = fc.array(word, { maxLength: 12 }).map((ws) => ws.join(' '));

  it('a query word starts a word of the texts exactly when it starts an indexed word', () => {
    fc.assert(
      fc.property(fc.array(text, { minLength: 1, maxLength: 3 }), word, (texts, q) => {
        const [w] = indexedQueryWords(q);
        fc.pre(w !== undefined);
        const viaIndex = indexWords(texts).some((x) => x.startsWith(w!));
        expect(viaIndex).toBe(matchesWordStarts(q, texts));
      }),
      { numRuns: 300 },
    );
  });
});

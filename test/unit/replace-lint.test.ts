import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/**
 * Issue 43: the lint rule that keeps data out of string replacements (whose `$` patterns a record's
 * text could trigger). Linted as a JavaScript file of shared/, so no type information is needed.
 */
const eslint = new ESLint({ cwd: process.cwd() });
const problems = async (code: string) =>
  (await eslint.lintText(code, { filePath: 'shared/probe.js' }))[0]!.messages.map((m) => m.ruleId);

describe('replace() with a replacement built from data', () => {
  it.each([
    ["export const f = (s, t) => s.replace('</head>', `${t}</head>`);"],
    ['export const f = (s, t) => s.replace(/x/g, t);'],
    ['export const f = (s, t) => s.replaceAll("a", t + "b");'],
  ])('is an error: %s', async (code) => {
    expect(await problems(code)).toEqual(['no-restricted-syntax']);
  });

  it.each([
    ["export const f = (s, t) => s.replace('</head>', () => `${t}</head>`);"],
    ["export const f = (s) => s.replace(/[.*]/g, '\\\\$&');"],
    ['export const f = (s) => s.replaceAll("a", `b`);'],
    ['export const f = (s, t) => s.replace(/x/g, function () { return t; });'],
  ])('is fine: %s', async (code) => {
    expect(await problems(code)).toEqual([]);
  });
});

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';
import { BUNDLE_ALIASES } from '../../infra/bundle/aliases';
import { plainText, safeHtml } from '../../shared/domain/text';
import { loadForBody } from '../../shared/http/lazy-parts';

/**
 * The function bundles leave postcss out and take only htmlparser2's Parser (infra/bundle/aliases.ts):
 * the sanitizer built that way must answer exactly as the full one, style attributes and entities
 * included.
 */
const dir = mkdtempSync(join(tmpdir(), 'cal-alias-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const SAMPLES = [
  '<p style="color:red" onclick="x()">Hi <b>there</b></p>',
  '<span style="position:fixed;top:0">overlay</span><img src="https://i.example/a.png" style="width:9999px">',
  '<div style="background:url(javascript:alert(1))">x</div><script>alert(1)</script>',
  '<a href="javascript:alert(1)" style="x">link</a> <a href="https://ok.example" target="_blank">ok</a>',
  'Plain &amp; <em style="">simple</em> &lt;3',
  'Caf&eacute; &#233; &#x263A; &nbsp;&copy; &notanentity; <b title="&quot;q&quot;">&lt;b&gt;</b>',
  '<![CDATA[x]]><!-- c --><p>unclosed <i>tags<table><tr><td>cell',
];

describe('the bundled sanitizer without postcss', () => {
  it('bundles no postcss nor htmlparser2 beyond its Parser, and sanitizes as the full one does', async () => {
    // The text functions with the module that loads their sanitizer, as the functions bundle them.
    const entry = join(dir, 'text.ts');
    writeFileSync(
      entry,
      `export * from '${resolve(import.meta.dirname, '../../shared/domain/text.ts')}';\n` +
        `export { loadForBody } from '${resolve(import.meta.dirname, '../../shared/http/lazy-parts.ts')}';\n`,
    );
    const out = join(dir, 'text.mjs');
    const result = await build({
      entryPoints: [entry],
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node22',
      mainFields: ['module', 'main'],
      outfile: out,
      logLevel: 'silent',
      metafile: true,
      alias: BUNDLE_ALIASES,
      banner: {
        js: "import { createRequire } from 'module'; const require = createRequire(import.meta.url);",
      },
    });
    const inputs = Object.keys(result.metafile.inputs);
    expect(inputs.filter((p) => /node_modules\/(postcss|source-map-js)\//.test(p))).toEqual([]);
    expect(inputs.filter((p) => /node_modules\/(domutils|dom-serializer|domhandler)\//.test(p))).toEqual([]);
    expect(inputs.filter((p) => /entities\/lib\/(esm\/)?encode/.test(p))).toEqual([]);
    expect(inputs.some((p) => p.includes('sanitize-html'))).toBe(true);

    const bundled = (await import(pathToFileURL(out).href)) as typeof import('../../shared/domain/text') &
      typeof import('../../shared/http/lazy-parts');
    await Promise.all([loadForBody(SAMPLES), bundled.loadForBody(SAMPLES)]);
    for (const html of SAMPLES) {
      expect(bundled.safeHtml(html), html).toBe(safeHtml(html));
      expect(bundled.plainText(html), html).toBe(plainText(html));
    }
    expect(bundled.safeHtml(SAMPLES[0]!)).toBe('<p>Hi <b>there</b></p>');
  });
});

describe('node:stream/web in the function bundles', () => {
  it('is replaced for @middy/core, its only importer, by a stand-in that answers instanceof as it would', async () => {
    const entry = join(dir, 'streams.ts');
    writeFileSync(
      entry,
      "import middy from '@middy/core';\nimport { ReadableStream } from 'node:stream/web';\nexport { middy, ReadableStream };\n",
    );
    const out = join(dir, 'streams.mjs');
    const result = await build({
      entryPoints: [entry],
      bundle: true,
      platform: 'node',
      format: 'esm',
      outfile: out,
      logLevel: 'silent',
      metafile: true,
      nodePaths: [resolve(import.meta.dirname, '../../node_modules')],
      alias: BUNDLE_ALIASES,
    });
    expect(
      result.metafile.outputs[Object.keys(result.metafile.outputs)[0]!]!.imports.map((i) => i.path),
    ).not.toContain('node:stream/web');
    const { ReadableStream: standIn } = (await import(pathToFileURL(out).href)) as {
      ReadableStream: unknown;
    };
    const { ReadableStream } = await import('node:stream/web');
    expect(new ReadableStream() instanceof (standIn as typeof ReadableStream)).toBe(true);
    expect(('body' as unknown as object) instanceof (standIn as typeof ReadableStream)).toBe(false);
    expect({ _readableState: {} } instanceof (standIn as typeof ReadableStream)).toBe(false);
  });

  it('has no importer but @middy/core in the functions that bundle the most', async () => {
    const { functionBuild } = await import('../../infra/bundle/build-options');
    const importers = new Set<string>();
    for (const fn of ['events/create-event', 'events/get-events-ical', 'venues/update-venue']) {
      const options = functionBuild(resolve(import.meta.dirname, `../../functions/${fn}.ts`), join(dir, fn));
      const { metafile } = await build({ ...options, alias: {}, metafile: true, write: false });
      for (const [path, input] of Object.entries(metafile.inputs))
        if (input.imports.some((i) => i.path === 'node:stream/web'))
          importers.add(path.replace(/^.*node_modules\//, ''));
    }
    expect([...importers]).toEqual(['@middy/core/index.js']);
  });
});

import { afterEach, describe, expect, it, vi } from 'vitest';

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
  vi.doUnmock('../../shared/http/powertools-logger');
  vi.resetModules();
});

/** JSON lines written to stdout or stderr while `run` runs (until the promise it returns settles). */
async function written(run: () => Promise<unknown>): Promise<Array<Record<string, unknown>>> {
  const lines: string[] = [];
  const keep = (chunk: string | Uint8Array) => (lines.push(String(chunk)), true);
  vi.spyOn(process.stdout, 'write').mockImplementation(keep);
  vi.spyOn(process.stderr, 'write').mockImplementation(keep);
  await run();
  return lines
    .flatMap((l) => l.split('\n'))
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l));
}

describe('logger (built on the first line)', () => {
  it('writes the keys appended before it was built, and those appended after', async () => {
    vi.stubEnv('LOG_LEVEL', 'INFO');
    const { logger } = await import('../../shared/http/logger');
    const lines = await written(async () => {
      logger.appendKeys({ requestId: 'r-1', operation: 'getEvent' });
      await logger.warn('data store unavailable', { error: new Error('boom') });
      logger.appendKeys({ requestId: 'r-2' });
      await logger.error('unexpected failure', { error: new Error('bang') });
    });
    expect(lines).toMatchObject([
      { level: 'WARN', message: 'data store unavailable', requestId: 'r-1', operation: 'getEvent' },
      { level: 'ERROR', message: 'unexpected failure', requestId: 'r-2', operation: 'getEvent' },
    ]);
    expect(lines[0]!.error).toMatchObject({ message: 'boom' });
  });

  it('gives each line the keys of when it was asked for, while Powertools is still loading', async () => {
    vi.stubEnv('LOG_LEVEL', 'INFO');
    const { logger } = await import('../../shared/http/logger');
    const lines = await written(() => {
      logger.appendKeys({ requestId: 'r-1', operation: 'getEvent' });
      const first = logger.warn('data store unavailable', { error: new Error('boom') });
      logger.appendKeys({ requestId: 'r-2' });
      const second = logger.error('unexpected failure', { error: new Error('bang') });
      logger.appendKeys({ requestId: 'r-3' });
      return Promise.all([first, second]);
    });
    expect(lines).toMatchObject([
      { level: 'WARN', message: 'data store unavailable', requestId: 'r-1', operation: 'getEvent' },
      { level: 'ERROR', message: 'unexpected failure', requestId: 'r-2', operation: 'getEvent' },
    ]);
    // Keys appended while the last line was loading still reach the logger for the next one.
    expect(await written(() => logger.warn('later', { error: new Error('x') }))).toMatchObject([
      { level: 'WARN', message: 'later', requestId: 'r-3', operation: 'getEvent' },
    ]);
  });

  it('writes nothing below its level', async () => {
    vi.stubEnv('LOG_LEVEL', 'ERROR');
    const { logger } = await import('../../shared/http/logger');
    const lines = await written(() => logger.warn('quiet', { error: new Error('x') }));
    expect(lines).toEqual([]);
  });

  it('is silent by default under vitest', async () => {
    const { logger } = await import('../../shared/http/logger');
    const lines = await written(() => logger.error('quiet', { error: new Error('x') }));
    expect(lines).toEqual([]);
  });

  it('imports Powertools only when a line is written', async () => {
    vi.stubEnv('LOG_LEVEL', 'INFO');
    const loaded = vi.fn();
    vi.doMock('../../shared/http/powertools-logger', async (original) => {
      loaded();
      return original();
    });
    const { logger } = await import('../../shared/http/logger');
    logger.appendKeys({ requestId: 'r-1' });
    expect(loaded).not.toHaveBeenCalled();

    const lines = await written(() => logger.warn('now', { error: new Error('x') }));

    expect(loaded).toHaveBeenCalledTimes(1);
    expect(lines).toMatchObject([{ level: 'WARN', message: 'now', requestId: 'r-1' }]);
  });

  it.each([
    [
      'Powertools cannot be loaded',
      () => {
        throw new Error('chunk missing');
      },
    ],
    [
      'the logger cannot be built',
      () => ({
        powertoolsLogger: () => {
          throw new Error('no logger');
        },
      }),
    ],
  ])('writes the message to console.error when %s, and never rejects', async (_why, factory) => {
    vi.stubEnv('LOG_LEVEL', 'INFO');
    vi.doMock('../../shared/http/powertools-logger', factory);
    const fallback = vi.spyOn(console, 'error').mockImplementation(() => {});
    const { logger } = await import('../../shared/http/logger');

    await expect(logger.error('unexpected failure', { error: new Error('bang') })).resolves.toBeUndefined();
    await expect(
      logger.warn('data store unavailable', { error: new Error('boom') }),
    ).resolves.toBeUndefined();

    expect(fallback.mock.calls.map((c) => c[0])).toEqual([
      'ERROR unexpected failure',
      'WARN data store unavailable',
    ]);
    expect(fallback.mock.calls[0]![1]).toMatchObject({ message: 'bang' });
  });
});

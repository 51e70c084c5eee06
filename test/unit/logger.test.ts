import { afterEach, describe, expect, it, vi } from 'vitest';

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
  vi.resetModules();
});

/** JSON lines written to stdout or stderr while `run` runs. */
async function written(run: () => void): Promise<Array<Record<string, unknown>>> {
  const lines: string[] = [];
  const keep = (chunk: string | Uint8Array) => (lines.push(String(chunk)), true);
  vi.spyOn(process.stdout, 'write').mockImplementation(keep);
  vi.spyOn(process.stderr, 'write').mockImplementation(keep);
  run();
  return lines
    .flatMap((l) => l.split('\n'))
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l));
}

describe('logger (built on the first line)', () => {
  it('writes the keys appended before it was built, and those appended after', async () => {
    vi.stubEnv('LOG_LEVEL', 'INFO');
    const { logger } = await import('../../shared/http/logger');
    const lines = await written(() => {
      logger.appendKeys({ requestId: 'r-1', operation: 'getEvent' });
      logger.warn('data store unavailable', { error: new Error('boom') });
      logger.appendKeys({ requestId: 'r-2' });
      logger.error('unexpected failure', { error: new Error('bang') });
    });
    expect(lines).toMatchObject([
      { level: 'WARN', message: 'data store unavailable', requestId: 'r-1', operation: 'getEvent' },
      { level: 'ERROR', message: 'unexpected failure', requestId: 'r-2', operation: 'getEvent' },
    ]);
    expect(lines[0]!.error).toMatchObject({ message: 'boom' });
  });

  it('writes nothing below its level', async () => {
    vi.stubEnv('LOG_LEVEL', 'ERROR');
    const { logger } = await import('../../shared/http/logger');
    const lines = await written(() => logger.warn('quiet', { error: new Error('x') }));
    expect(lines).toEqual([]);
  });
});

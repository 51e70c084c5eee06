import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { useStack } from '../support/use-stack';

/**
 * The README's "Walk-through with curl" runs as written, in order, on an empty store: every curl
 * answers 2xx unless its line's comment announces the status ("→ 410"), and an announced status
 * does happen. Only the API base changes (to this file's stack); the token command runs for real.
 */
const { api } = await useStack();

const ROOT = resolve(import.meta.dirname, '../..');
const SECTION = 'Walk-through with curl';
const README_API = 'http://localhost:3000/cal/events/v1';
const TOKEN_COMMAND = 'npm run -s token -- --role editor';

/** The shell code blocks of the README section under `heading`, each with the README line it starts on. */
function sectionShell(markdown: string, heading: string): Array<{ text: string; firstLine: number }> {
  const start = markdown.indexOf(`## ${heading}\n`);
  if (start < 0) throw new Error(`README has no "## ${heading}" section`);
  const next = markdown.indexOf('\n## ', start + 1);
  const section = markdown.slice(start, next < 0 ? undefined : next);
  const lineOf = (offset: number) => markdown.slice(0, offset).split('\n').length;
  return [...section.matchAll(/^```(?:sh|bash|shell)\n([\s\S]*?)^```$/gm)].map((m) => ({
    text: m[1]!,
    firstLine: lineOf(start + m.index + m[0].indexOf('\n') + 1),
  }));
}

interface Command {
  /** The README line the command starts on, for messages. */
  line: number;
  /** The command as bash runs it: comments removed, continuation lines and multi-line quotes kept. */
  code: string;
  /** The comments on the command's lines. */
  comment: string;
}

/**
 * Splits shell text into commands: a command ends at a newline outside quotes that does not follow a
 * backslash. Enough shell for a README (no heredocs, no quotes nested in "$(...)").
 */
function splitCommands(script: string, firstLine = 1): Command[] {
  const out: Command[] = [];
  let quote: string | null = null;
  let code = '';
  let comment = '';
  let line = 0;
  script.split('\n').forEach((text, i) => {
    if (!code) line = firstLine + i;
    let kept = '';
    for (let j = 0; j < text.length; j++) {
      const c = text[j]!;
      if (quote) {
        if (c === '\\' && quote === '"') {
          kept += c + (text[++j] ?? '');
          continue;
        }
        if (c === quote) quote = null;
        kept += c;
      } else if (c === "'" || c === '"') {
        quote = c;
        kept += c;
      } else if (c === '\\') {
        kept += c + (text[++j] ?? '');
      } else if (c === '#' && (j === 0 || /\s/.test(text[j - 1]!))) {
        comment += `${text.slice(j + 1).trim()} `;
        break;
      } else kept += c;
    }
    code += (code ? '\n' : '') + kept.trimEnd();
    if (quote === null && !kept.trimEnd().endsWith('\\')) {
      if (code.trim()) out.push({ line, code, comment: comment.trim() });
      code = '';
      comment = '';
    }
  });
  if (quote !== null || code.trim()) throw new Error(`unterminated command from line ${line}`);
  return out;
}

/** Statuses announced in a comment: "→ 410", "→410". */
const announced = (comment: string): number[] =>
  [...comment.matchAll(/→\s*(\d{3})\b/g)].map((m) => Number(m[1]));

/** Runs bash asynchronously: the stack answers from this process, so a synchronous spawn would deadlock. */
function bash(script: string, env: NodeJS.ProcessEnv, timeoutMs: number) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((ok, fail) => {
    const child = spawn('bash', ['-c', script], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', fail);
    child.on('close', (code) => {
      clearTimeout(timer);
      ok({ code, stdout, stderr });
    });
  });
}

const commands = sectionShell(await readFile(join(ROOT, 'README.md'), 'utf8'), SECTION).flatMap((b) =>
  splitCommands(b.text, b.firstLine),
);

// The first request to an operation loads its handler module (transformed, validators compiled),
// seconds each on a cold run. Paid here, under the hook timeout, so the test's own 30 s measure the
// walk-through: every method and $API path it uses, sent anonymously and without a body (reads run,
// writes stop at 401 before touching the store).
beforeAll(async () => {
  for (const { code } of commands)
    for (const m of code.matchAll(/\$API(\/[^\s"'?]*)?/g)) {
      const method = /-X\s+([A-Z]+)/.exec(code)?.[1] ?? 'GET';
      await fetch(`${api.base}${m[1] ?? ''}`, { method }).then((r) => r.arrayBuffer());
    }
});

describe('README walk-through', () => {
  it('runs in order on an empty store with only the announced non-2xx statuses', async () => {
    expect(commands.length).toBeGreaterThan(10);

    // The API base is the one thing replaced: the README's (npm start's default) becomes this stack's.
    const apiLine = commands.find((c) => /^API=/.test(c.code));
    expect(apiLine?.code).toBe(`API=${README_API}`);
    apiLine!.code = `API=${api.base}`;

    // The token command runs as written rather than being swapped for a token signed here, so the
    // test covers what a reader types. `npm run token` signs with the secret in $CAL_DATA_DIR
    // (default .data/, local/secret.ts), while this stack verifies with AUTH_LOCAL_SECRET from
    // test/support/env.ts: a throwaway CAL_DATA_DIR holding that secret makes the two agree without
    // touching the developer's .data/.
    expect(commands.some((c) => c.code.includes(TOKEN_COMMAND))).toBe(true);
    const dir = await mkdtemp(join(tmpdir(), 'cal-walkthrough-'));
    try {
      await writeFile(join(dir, 'local-jwt-secret'), process.env.AUTH_LOCAL_SECRET!, { mode: 0o600 });
      const statusFile = join(dir, 'statuses');
      await writeFile(statusFile, '');

      // Every curl, wherever it appears (pipes, $(...)), goes through this wrapper: the equivalent of
      // -w '\n%{http_code}', but the status goes to a file keyed by the command's index, so stdout
      // stays the bare body the README's `| json_id` and `| head` read.
      const preamble = String.raw`
set -o pipefail
curl() {
  local body code rc
  body=$(mktemp) || return
  code=$(command curl -o "$body" -w '%{http_code}' "$@"); rc=$?
  cat "$body"; rm -f "$body"
  printf '%s status %s\n' "$WALKTHROUGH_STEP" "$code" >> "$WALKTHROUGH_STATUS"
  return $rc
}
`;
      const script =
        preamble +
        commands
          .map(
            (c, i) =>
              `WALKTHROUGH_STEP=${i}\n${c.code}\nprintf '%s exit %s\\n' "${i}" "$?" >> "$WALKTHROUGH_STATUS"\n`,
          )
          .join('');
      const run = await bash(
        script,
        { ...process.env, CAL_DATA_DIR: dir, WALKTHROUGH_STATUS: statusFile },
        25_000,
      );

      const statuses = commands.map(() => [] as number[]);
      const exits = commands.map(() => undefined as number | undefined);
      for (const row of (await readFile(statusFile, 'utf8')).split('\n').filter(Boolean)) {
        const [step, kind, value] = row.split(' ');
        if (kind === 'status') statuses[Number(step)]!.push(Number(value));
        else exits[Number(step)] = Number(value);
      }

      const problems: string[] = [];
      commands.forEach((c, i) => {
        const where = `README.md:${c.line}: ${c.code.split('\n')[0]}`;
        const expected = announced(c.comment);
        const curls = c.code.match(/\bcurl\b/g)?.length ?? 0;
        if (exits[i] === undefined) problems.push(`${where}: did not run`);
        else if (exits[i] !== 0) problems.push(`${where}: exit status ${exits[i]}`);
        if (statuses[i]!.length !== curls)
          problems.push(`${where}: ${curls} curl call(s), ${statuses[i]!.length} status(es) seen`);
        for (const s of statuses[i]!) {
          const fine = expected.length > 0 ? expected.includes(s) : s >= 200 && s < 300;
          if (!fine)
            problems.push(
              `${where}: answered ${s}, ${expected.length > 0 ? `announced → ${expected.join(', ')}` : 'expected 2xx (announce other statuses as "→ NNN" in the comment)'}`,
            );
        }
        for (const s of expected)
          if (!statuses[i]!.includes(s)) problems.push(`${where}: announced → ${s}, not seen`);
      });
      expect(
        problems,
        `bash exited ${run.code}\n--- stdout (tail)\n${run.stdout.slice(-2000)}\n--- stderr (tail)\n${run.stderr.slice(-2000)}`,
      ).toEqual([]);
      // The announcement the issue asks for is there and was checked above.
      expect(commands.flatMap((c) => announced(c.comment))).toContain(410);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

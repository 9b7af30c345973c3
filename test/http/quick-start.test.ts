/**
 * The docs' Quick start page (docs/docs/quick-start.md) run as a reader runs it: its ```bash blocks,
 * as written, in one bash session against a fresh server on a real port, each block's output
 * compared with the ```json answer the page shows under it ("…" matches anything). The page cannot
 * rot: a step that stops working, or answers something else than the page says, fails here.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { DEFAULT_SANDBOX_API_KEY } from '../../server/platform/config.js';
import { listeningHarness, type Harness } from '../helpers/harness.js';

const PAGE = path.join(process.cwd(), 'docs/docs/quick-start.md');
const PAGE_BASE = 'http://localhost:3000/api/v1';
const WILDCARD = '…';

interface Step { commands: string; expected?: string }

/** The page's bash blocks in order, each with the json block that follows it, if one does. */
function stepsOf(page: string): Step[] {
  const blocks = [...page.matchAll(/^```(\w+)[^\n]*\n([\s\S]*?)^```/gm)].map((m) => ({ lang: m[1], text: m[2] }));
  const steps: Step[] = [];
  blocks.forEach((block, i) => {
    if (block.lang !== 'bash') return;
    const next = blocks[i + 1];
    steps.push({ commands: block.text, expected: next?.lang === 'json' ? next.text : undefined });
  });
  return steps;
}

/** Concatenated JSON values (what jq prints, or a bare number), parsed one by one. */
function jsonValues(text: string): unknown[] {
  const values: unknown[] = [];
  let depth = 0;
  let start = -1;
  let inString = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i += 1;
      else if (c === '"') inString = false;
      continue;
    }
    if (start === -1) {
      if (/\s/.test(c)) continue;
      start = i;
    }
    if (c === '"') inString = true;
    else if (c === '{' || c === '[') depth += 1;
    else if (c === '}' || c === ']') depth -= 1;
    const scalarEnds = depth === 0 && (i + 1 === text.length || /\s/.test(text[i + 1])) && !inString;
    if (depth === 0 && scalarEnds) {
      values.push(JSON.parse(text.slice(start, i + 1)));
      start = -1;
    }
  }
  if (start !== -1) throw new Error(`unparsed output: ${text.slice(start)}`);
  return values;
}

/** The page's answer against what was printed: the same shape and values, "…" matching anything. */
function matches(expected: unknown, actual: unknown): boolean {
  if (expected === WILDCARD) return actual !== undefined;
  if (Array.isArray(expected)) return Array.isArray(actual) && actual.length === expected.length && expected.every((e, i) => matches(e, actual[i]));
  if (expected && typeof expected === 'object') {
    if (!actual || typeof actual !== 'object' || Array.isArray(actual)) return false;
    const keys = Object.keys(expected);
    return keys.length === Object.keys(actual).length && keys.every((key) => matches((expected as any)[key], (actual as any)[key]));
  }
  return expected === actual;
}

let h: Harness;
let base: string;

beforeAll(async () => { ({ h, base } = await listeningHarness()); });
afterAll(async () => { await h.close(); });

describe('the Quick start page (docs/docs/quick-start.md), run as written against a fresh server', () => {
  const page = readFileSync(PAGE, 'utf8');
  const steps = stepsOf(page);

  it('names the sandbox the README starts: its address and its default key', () => {
    expect(page).toContain(`\nBASE=${PAGE_BASE}\n`);
    expect(page).toContain(`\nKEY=${DEFAULT_SANDBOX_API_KEY}\n`);
    expect(steps.length).toBeGreaterThan(10);
    expect(steps.filter((step) => step.expected === undefined)).toEqual([]);
  });

  it('every block prints the answer the page shows under it', async () => {
    const marker = (i: number) => `@@@quick-start-step-${i}@@@`;
    // The page's two settings pointed at this server and its key; every other line as written.
    const script = ['set -uo pipefail', ...steps.map((step, i) => `echo '${marker(i)}'\n${step.commands}`)].join('\n')
      .replace(`BASE=${PAGE_BASE}`, `BASE=${base}`).replace(`KEY=${DEFAULT_SANDBOX_API_KEY}`, `KEY=${h.apiKey}`);
    const { stdout, stderr } = await new Promise<{ stdout: string; stderr: string }>((resolve, reject) => {
      // Asynchronous: the server answering the script runs in this process.
      execFile('bash', ['-c', script], { timeout: 120_000, maxBuffer: 16 * 1024 * 1024, env: { ...process.env, LC_ALL: 'C.UTF-8' } },
        (error, out, err) => (error && error.killed ? reject(error) : resolve({ stdout: out, stderr: err })));
    });
    const outputs = stdout.split(/^@@@quick-start-step-\d+@@@\n/m).slice(1);
    expect({ blocks: outputs.length, stderr }).toEqual({ blocks: steps.length, stderr: '' });
    steps.forEach((step, i) => {
      const printed = jsonValues(outputs[i]);
      const shown = jsonValues(step.expected!);
      const agree = printed.length === shown.length && shown.every((value, j) => matches(value, printed[j]));
      if (!agree) throw new Error(`step ${i + 1} of the page printed something else than the page shows.\ncommands:\n${step.commands}\nprinted:\n${outputs[i]}\nthe page shows:\n${step.expected}`);
    });
  }, 180_000);
});

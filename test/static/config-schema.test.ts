import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { CONFIG_PAGE, configPage } from '../../scripts/config-page.js';
import { CONFIG_AREAS, CONFIG_VARIABLES } from '../../server/platform/config-variables.js';

/**
 * The server reads its environment through one declared list (server/platform/config-variables.ts):
 * config.ts alone touches `process.env` (loadConfig's default), every `env.X` the server reads is a
 * declared name, every declared name is read, and the docs' table made from the list is current.
 */

const root = path.resolve(import.meta.dirname, '../..');
const DECLARED = new Set(Object.keys(CONFIG_VARIABLES));
/** Where the environment may be read: loadConfig and its helpers, and the list's own filter. */
const READERS = ['server/platform/config.ts', 'server/platform/config-variables.ts'];

function sources(dir: string): string[] {
  return readdirSync(path.join(root, dir), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)));
}
const serverFiles = [...sources('server'), ...sources('handlers')];
const text = (file: string) => readFileSync(path.join(root, file), 'utf8')
  // Comments say what the code reads; only code counts.
  .replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');

describe('configuration variables (server/platform/config-variables.ts)', () => {
  it('only config.ts reads process.env, as the default of loadConfig and configWarnings', () => {
    const readers = serverFiles.filter((file) => /\bprocess\.env\b/.test(text(file)));
    expect(readers).toEqual(['server/platform/config.ts']);
    const uses = text('server/platform/config.ts').match(/.*\bprocess\.env\b.*/g) ?? [];
    expect(uses.every((line) => /=\s*process\.env\)/.test(line))).toBe(true);
  });

  it('reads every variable by a declared name, and reads the environment in config.ts alone', () => {
    const problems: string[] = [];
    for (const file of serverFiles) {
      const code = text(file);
      for (const [, name] of code.matchAll(/\benv\??\.([A-Za-z_][A-Za-z0-9_]*)/g)) {
        if (!DECLARED.has(name)) problems.push(`${file}: env.${name} is not declared`);
        else if (!READERS.includes(file)) problems.push(`${file}: reads env.${name} (read it through loadConfig's Config)`);
      }
      for (const [, name] of code.matchAll(/\benv\[\s*['"`]([^'"`]+)['"`]\s*\]/g)) {
        if (!DECLARED.has(name)) problems.push(`${file}: env['${name}'] is not declared`);
      }
      if (!READERS.includes(file) && /\benv\[/.test(code)) problems.push(`${file}: reads env[...] outside config.ts`);
    }
    expect(problems).toEqual([]);
  });

  it('reads every declared variable (by env.NAME or by its name given to a reader)', () => {
    const code = text('server/platform/config.ts');
    const unread = [...DECLARED].filter((name) => !new RegExp(`\\benv\\??\\.${name}\\b|['"]${name}['"]`).test(code));
    expect(unread).toEqual([]);
  });

  it('declares each variable in a known area, with its meaning and values', () => {
    for (const [name, spec] of Object.entries(CONFIG_VARIABLES)) {
      expect({ name, area: CONFIG_AREAS.includes(spec.area), upper: /^[A-Z][A-Z0-9_]*$/.test(name) }).toEqual({ name, area: true, upper: true });
      expect(spec.meaning.length).toBeGreaterThan(10);
      expect(spec.allowed.length).toBeGreaterThan(0);
    }
  });

  it(`${CONFIG_PAGE} is what npm run generate makes of the list`, () => {
    expect(readFileSync(path.join(root, CONFIG_PAGE), 'utf8')).toBe(configPage());
  });
});

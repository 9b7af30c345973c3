import path from 'node:path';
import ts from 'typescript';

/**
 * Which error codes a piece of the server can raise, read from the source with TypeScript's type
 * checker: the call graph from a starting node (a handler, an app function) through every
 * function, method, class, constant and object member of the project it names, collecting each
 * error site on the way: `new ApiError(status, code, ...)`, `new HtmlError(...)` and the helpers of
 * server/platform/errors.ts (`badRequest(message, code?)` ...: the status and default code read
 * from the helper's own body).
 * A site's status and code are the literal types of its arguments, so a code held in a typed
 * constant (`'A' | 'B'`) counts as both; a site whose code or status is not a small union of
 * literals is reported as a problem. A call through an interface's method (a storage, a payment
 * provider) reaches every implementation in the project (classes that implement it, object
 * literals typed as it). Over-approximate by design: a branch that cannot run still counts.
 */

export interface ErrorSite {
  /** `file:line` of the site, relative to the project root. */
  at: string;
  statuses: number[];
  codes: string[];
  /** Why the site's codes or statuses could not be read (not literals), if they could not. */
  problem?: string;
}

/**
 * How business events are dispatched: `emit` records an event and runs the reactions of its type
 * through an interface member (the services' `reactions`, the domain's table of reactions by
 * type). A call of `emit` leads to the rows of that table for the types its event can have, and
 * the member itself leads nowhere: else every change that records an event would reach every
 * reaction of every other event.
 */
export interface EventDispatch {
  /** The function that records an event, [file, name], and which of its arguments is the event. */
  emit: [string, string];
  eventArgument: number;
  /** The table of reactions by event type (an object constant), [file, name]. */
  reactions: [string, string];
  /** The interface member `emit` runs them through, [file, interface, member]. */
  member: [string, string, string];
}

/** This project's: server/domain/events/catalogue.ts's `emit`, server/domain/reactions.ts's `REACTIONS`, `Services.reactions`. */
export const DOMAIN_EVENTS: EventDispatch = {
  emit: ['server/domain/events/catalogue.ts', 'emit'],
  eventArgument: 3,
  reactions: ['server/domain/reactions.ts', 'REACTIONS'],
  member: ['server/platform/context.ts', 'Services', 'reactions'],
};

/** A code held in a value typed as more than this many codes names no specific code. */
const MAX_CODES_PER_SITE = 12;

type Walkable = ts.Node;

export class ErrorReach {
  readonly program: ts.Program;
  readonly checker: ts.TypeChecker;
  private readonly root: string;
  private readonly errorsModule: string;
  private readonly direct = new Map<Walkable, { sites: ErrorSite[]; next: Set<Walkable> }>();
  private implementations?: Map<ts.Declaration, Walkable[]>;
  private readonly events?: EventDispatch;
  private dispatch?: { emit: ts.Node; table: ts.Node; rows: Map<string, ts.Node>; member: ts.Node };

  /**
   * `rootFiles`: where the program starts (their imports are followed); `errorsModule`: the
   * module defining ApiError, HtmlError and the helpers.
   */
  constructor(root: string, rootFiles: string[], options: { errorsModule?: string; compilerOptions?: ts.CompilerOptions; events?: EventDispatch } = {}) {
    this.root = root;
    this.events = options.events;
    this.errorsModule = path.resolve(root, options.errorsModule ?? 'server/platform/errors.ts');
    const compilerOptions: ts.CompilerOptions = options.compilerOptions ?? {
      target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext,
      strict: true, skipLibCheck: true, noEmit: true, resolveJsonModule: true, types: ['node'],
    };
    this.program = ts.createProgram(rootFiles.map((file) => path.resolve(root, file)), compilerOptions);
    this.checker = this.program.getTypeChecker();
  }

  sourceFile(file: string): ts.SourceFile {
    const source = this.program.getSourceFile(path.resolve(this.root, file));
    if (!source) throw new Error(`${file} is not in the program`);
    return source;
  }

  /** The top-level function or constant `name` of `file`. */
  declarationNamed(file: string, name: string): ts.Node {
    const source = this.sourceFile(file);
    let found: ts.Node | undefined;
    const visit = (node: ts.Node) => {
      if (found) return;
      if ((ts.isFunctionDeclaration(node) || ts.isVariableDeclaration(node) || ts.isClassDeclaration(node)) && node.name && ts.isIdentifier(node.name) && node.name.text === name) found = node;
      else ts.forEachChild(node, visit);
    };
    visit(source);
    if (!found) throw new Error(`${file} declares no ${name}`);
    return found;
  }

  /**
   * The members of the object constant `name` in `file` (the handler map), each with the node
   * its value is made by: operationId -> node.
   */
  membersOf(file: string, name: string): Map<string, ts.Node> {
    const declaration = this.declarationNamed(file, name) as ts.VariableDeclaration;
    const members = new Map<string, ts.Node>();
    for (const property of this.checker.getTypeAtLocation(declaration.name).getProperties()) {
      const declared = property.valueDeclaration ?? property.declarations?.[0] ?? this.contributorOf(declaration, property.getName());
      if (declared) members.set(property.getName(), declared);
    }
    return members;
  }

  /**
   * Where a member with no declaration of its own comes from (a map typed as a mapped type, built
   * from a generated list: `Object.fromEntries(ids.map((id) => [id, handler]))`): through the
   * object literals' spreads down to the constant whose value makes it, whose initializer is then
   * walked as the member's node.
   */
  private contributorOf(declaration: ts.Node, member: string): ts.Node | undefined {
    if (!ts.isVariableDeclaration(declaration) || !declaration.initializer) return undefined;
    let value: ts.Expression = declaration.initializer;
    while (ts.isAsExpression(value) || ts.isSatisfiesExpression(value) || ts.isParenthesizedExpression(value)) value = value.expression;
    if (!ts.isObjectLiteralExpression(value)) return declaration;
    for (const property of value.properties) {
      if (!ts.isSpreadAssignment(property) || !this.checker.getTypeAtLocation(property.expression).getProperty(member)) continue;
      let symbol = this.checker.getSymbolAtLocation(property.expression);
      if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = this.checker.getAliasedSymbol(symbol);
      const source = symbol?.valueDeclaration;
      return source ? this.contributorOf(source, member) ?? source : undefined;
    }
    return undefined;
  }

  /** Every error site reachable from `starts`, not going through `except`. */
  sitesFrom(starts: ts.Node[], except: ts.Node[] = []): ErrorSite[] {
    return this.walk(starts, except).sites;
  }

  /** The error sites and the declarations (`starts` among them) the walk from `starts` reaches, not going through `except`. */
  walk(starts: ts.Node[], except: ts.Node[] = []): { sites: ErrorSite[]; reached: Walkable[] } {
    const seen = new Set<Walkable>(except);
    const sites: ErrorSite[] = [];
    const reached: Walkable[] = [];
    const pending = [...starts];
    while (pending.length) {
      const node = pending.pop()!;
      if (seen.has(node)) continue;
      seen.add(node);
      reached.push(node);
      const found = this.directOf(node);
      sites.push(...found.sites);
      for (const next of found.next) if (!seen.has(next)) pending.push(next);
    }
    return { sites, reached };
  }

  /** The calls of the function `callee` (its declaration) in the code of `nodes`. */
  callsTo(nodes: ts.Node[], callee: ts.Node): ts.CallExpression[] {
    const calls: ts.CallExpression[] = [];
    const visit = (node: ts.Node) => {
      if (ts.isCallExpression(node)) {
        const symbol = this.symbolOf(node.expression);
        if (symbol?.declarations?.includes(callee as ts.Declaration)) calls.push(node);
      }
      ts.forEachChild(node, visit);
    };
    nodes.forEach(visit);
    return calls;
  }

  /** The literal values the property `name` of an expression's type may have (each member's, for a union); throws unless literals. */
  propertyLiterals(expression: ts.Expression, name: string): (string | number)[] {
    const type = this.checker.getTypeAtLocation(expression);
    return (type.isUnion() ? type.types : [type]).flatMap((member) => {
      const property = member.getProperty(name);
      const propertyType = property && this.checker.getTypeOfSymbolAtLocation(property, expression);
      const parts = propertyType?.isUnion() ? propertyType.types : propertyType ? [propertyType] : [];
      if (!parts.length || !parts.every((part) => part.isStringLiteral() || part.isNumberLiteral())) {
        throw new Error(`${this.relative(expression)}: ${expression.getText()}.${name} is not of literal types`);
      }
      return parts.map((part) => (part as ts.StringLiteralType | ts.NumberLiteralType).value);
    });
  }

  private relative(node: ts.Node): string {
    const source = node.getSourceFile();
    const { line } = source.getLineAndCharacterOfPosition(node.getStart());
    return `${path.relative(this.root, source.fileName)}:${line + 1}`;
  }

  private inProject(declaration: ts.Node): boolean {
    const file = declaration.getSourceFile();
    return !file.isDeclarationFile && !file.fileName.includes('/node_modules/') && file.fileName.startsWith(this.root);
  }

  private symbolOf(node: ts.Node): ts.Symbol | undefined {
    let symbol = ts.isShorthandPropertyAssignment(node.parent) && node.parent.name === node
      ? this.checker.getShorthandAssignmentValueSymbol(node.parent)
      : this.checker.getSymbolAtLocation(node);
    if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = this.checker.getAliasedSymbol(symbol);
    return symbol;
  }

  /** The literal values of an expression's type, or why it has none. */
  private literals(expression: ts.Expression): { values: (string | number)[]; problem?: string } {
    const type = this.checker.getTypeAtLocation(expression);
    const parts = type.isUnion() ? type.types : [type];
    const values: (string | number)[] = [];
    for (const part of parts) {
      if (part.isStringLiteral() || part.isNumberLiteral()) values.push(part.value);
      else return { values: [], problem: `${expression.getText()} is of type ${this.checker.typeToString(type)}, not literals` };
    }
    if (values.length > MAX_CODES_PER_SITE) return { values: [], problem: `${expression.getText()} may be any of ${values.length} values (type ${this.checker.typeToString(type)}): name the codes it can be` };
    return { values };
  }

  private site(at: ts.Node, status: ts.Expression | undefined, code: ts.Expression | undefined): ErrorSite {
    const where = this.relative(at);
    if (!status || !code) return { at: where, statuses: [], codes: [], problem: 'an error site without a status or code' };
    const statuses = this.literals(status);
    const codes = this.literals(code);
    const problem = statuses.problem ?? codes.problem;
    return { at: where, statuses: statuses.values as number[], codes: codes.values as string[], ...(problem ? { problem } : {}) };
  }

  /**
   * A call of a helper of the errors module (`badRequest(message, code = 'VALIDATION_ERROR')`):
   * the `new ApiError(...)` in its body, its parameters replaced by the call's arguments (or
   * their defaults).
   */
  private helperSite(call: ts.CallExpression, helper: ts.VariableDeclaration | ts.FunctionDeclaration): ErrorSite | undefined {
    const fn = ts.isVariableDeclaration(helper) ? helper.initializer : helper;
    if (!fn || !(ts.isArrowFunction(fn) || ts.isFunctionExpression(fn) || ts.isFunctionDeclaration(fn))) return undefined;
    let made: ts.NewExpression | undefined;
    const find = (node: ts.Node) => { if (!made && ts.isNewExpression(node)) made = node; else if (!made) ts.forEachChild(node, find); };
    find(fn);
    // Not a helper that makes an error (the error body, a validation message).
    if (!made) return undefined;
    const parameters = fn.parameters;
    const argumentFor = (expression: ts.Expression | undefined): ts.Expression | undefined => {
      if (!expression || !ts.isIdentifier(expression)) return expression;
      const index = parameters.findIndex((p) => ts.isIdentifier(p.name) && p.name.text === expression.text);
      if (index < 0) return expression;
      return call.arguments[index] ?? parameters[index].initializer;
    };
    return this.site(call, argumentFor(made.arguments?.[0]), argumentFor(made.arguments?.[1]));
  }

  /** An error site, if `node` is one. */
  private siteAt(node: ts.CallExpression | ts.NewExpression): ErrorSite | undefined {
    const symbol = this.symbolOf(node.expression);
    const declaration = symbol?.valueDeclaration ?? symbol?.declarations?.[0];
    if (!declaration) return undefined;
    const file = path.resolve(declaration.getSourceFile().fileName);
    if (file === this.errorsModule) {
      if (ts.isNewExpression(node) && ts.isClassDeclaration(declaration)) return this.site(node, node.arguments?.[0], node.arguments?.[1]);
      if (ts.isCallExpression(node) && (ts.isVariableDeclaration(declaration) || ts.isFunctionDeclaration(declaration))) return this.helperSite(node, declaration);
    }
    return undefined;
  }

  /** The event dispatch's nodes, found once (undefined without `events`). */
  private eventDispatch() {
    if (!this.events || this.dispatch) return this.dispatch;
    const { emit, reactions, member: [file, owner, name] } = this.events;
    const table = this.declarationNamed(...reactions) as ts.VariableDeclaration;
    let value = table.initializer!;
    while (ts.isAsExpression(value) || ts.isSatisfiesExpression(value) || ts.isParenthesizedExpression(value)) value = value.expression;
    if (!ts.isObjectLiteralExpression(value)) throw new Error(`${reactions.join(' ')} is not an object literal`);
    const rows = new Map<string, ts.Node>();
    for (const row of value.properties) if (ts.isPropertyAssignment(row) && (ts.isStringLiteral(row.name) || ts.isIdentifier(row.name))) rows.set(row.name.text, row);
    let member: ts.Node | undefined;
    const find = (node: ts.Node) => {
      if (ts.isInterfaceDeclaration(node) && node.name.text === owner) member = node.members.find((m) => m.name && ts.isIdentifier(m.name) && m.name.text === name);
      else if (!member) ts.forEachChild(node, find);
    };
    find(this.sourceFile(file));
    if (!member) throw new Error(`${file} declares no ${owner}.${name}`);
    this.dispatch = { emit: this.declarationNamed(...emit), table, rows, member };
    return this.dispatch;
  }

  /**
   * A call of the dispatch's `emit`: the reactions of the types its event can have (the whole
   * table when they are not literals). Undefined for any other call.
   */
  private reactionsOf(call: ts.CallExpression): ts.Node[] | undefined {
    const dispatch = this.eventDispatch();
    if (!dispatch) return undefined;
    const symbol = this.symbolOf(call.expression);
    if (!symbol?.declarations?.includes(dispatch.emit as ts.Declaration)) return undefined;
    const event = call.arguments[this.events!.eventArgument];
    const property = event && this.checker.getTypeAtLocation(event).getProperty('type');
    if (!property) return [dispatch.table];
    const type = this.checker.getTypeOfSymbolAtLocation(property, event);
    const rows: ts.Node[] = [];
    for (const part of type.isUnion() ? type.types : [type]) {
      const row = part.isStringLiteral() ? dispatch.rows.get(part.value) : undefined;
      if (!row) return [dispatch.table];
      rows.push(row);
    }
    return rows;
  }

  /** What a declaration reached by name leads the walk to. */
  private targetsOf(symbol: ts.Symbol): Walkable[] {
    const targets: Walkable[] = [];
    for (const declaration of symbol.declarations ?? []) {
      if (!this.inProject(declaration)) continue;
      if (path.resolve(declaration.getSourceFile().fileName) === this.errorsModule) continue;
      if (ts.isFunctionDeclaration(declaration) || ts.isMethodDeclaration(declaration) || ts.isClassDeclaration(declaration)
        || ts.isGetAccessorDeclaration(declaration) || ts.isPropertyAssignment(declaration) || ts.isShorthandPropertyAssignment(declaration)
        || (ts.isVariableDeclaration(declaration) && declaration.initializer && !this.isLocalValue(declaration))
        || (ts.isPropertyDeclaration(declaration) && declaration.initializer)) {
        targets.push(declaration);
      } else if (ts.isMethodSignature(declaration) || (ts.isPropertySignature(declaration) && this.isCallable(declaration))) {
        targets.push(...(this.implementationsOf().get(declaration) ?? []));
      }
    }
    return targets;
  }

  /**
   * A variable of a function holding a value, not a function: its initializer is walked with the
   * function that holds it (a data member reached through an interface leads no further).
   */
  private isLocalValue(declaration: ts.VariableDeclaration): boolean {
    const initializer = declaration.initializer;
    if (initializer && (ts.isArrowFunction(initializer) || ts.isFunctionExpression(initializer))) return false;
    for (let node: ts.Node = declaration.parent; node; node = node.parent) if (ts.isFunctionLike(node)) return true;
    return false;
  }

  private isCallable(declaration: ts.PropertySignature): boolean {
    return this.checker.getTypeAtLocation(declaration).getCallSignatures().length > 0;
  }

  private directOf(start: Walkable): { sites: ErrorSite[]; next: Set<Walkable> } {
    const known = this.direct.get(start);
    if (known) return known;
    const found = { sites: [] as ErrorSite[], next: new Set<Walkable>() };
    this.direct.set(start, found);
    const visit = (node: ts.Node) => {
      if (ts.isCallExpression(node)) for (const row of this.reactionsOf(node) ?? []) found.next.add(row);
      if (ts.isCallExpression(node) || ts.isNewExpression(node)) {
        const site = this.siteAt(node);
        if (site) {
          found.sites.push(site);
          node.arguments?.forEach(visit);
          return;
        }
      }
      if (ts.isIdentifier(node) || ts.isPrivateIdentifier(node)) {
        const symbol = this.symbolOf(node);
        // The event dispatch's member: `emit`'s calls lead to their own reactions instead.
        if (symbol && this.events && symbol.declarations?.includes(this.eventDispatch()!.member as ts.Declaration)) return;
        if (symbol) for (const target of this.targetsOf(symbol)) if (target !== start) found.next.add(target);
        return;
      }
      if (ts.isTypeNode(node) || ts.isInterfaceDeclaration(node) || ts.isTypeAliasDeclaration(node) || ts.isImportDeclaration(node)) return;
      ts.forEachChild(node, visit);
    };
    // A declaration's name is not a use of it: walk what it holds.
    if (ts.isVariableDeclaration(start) || ts.isPropertyDeclaration(start) || ts.isPropertyAssignment(start)) {
      if (start.initializer) visit(start.initializer);
    } else if (ts.isShorthandPropertyAssignment(start)) {
      visit(start.name);
    } else if (ts.isFunctionDeclaration(start) || ts.isMethodDeclaration(start) || ts.isGetAccessorDeclaration(start)) {
      start.parameters.forEach((p) => p.initializer && visit(p.initializer));
      if (start.body) visit(start.body);
    } else {
      ts.forEachChild(start, visit);
    }
    return found;
  }

  /**
   * Interface members (declared in the project) -> the class members and object-literal
   * properties that implement them, over every source file of the project.
   */
  private implementationsOf(): Map<ts.Declaration, Walkable[]> {
    if (this.implementations) return this.implementations;
    const map = new Map<ts.Declaration, Walkable[]>();
    const add = (interfaceType: ts.Type, name: string, implementation: Walkable) => {
      const member = this.checker.getPropertyOfType(interfaceType, name);
      for (const declaration of member?.declarations ?? []) {
        if (!(ts.isMethodSignature(declaration) || ts.isPropertySignature(declaration)) || !this.inProject(declaration)) continue;
        map.set(declaration, [...(map.get(declaration) ?? []), implementation]);
      }
    };
    const visit = (node: ts.Node) => {
      if (ts.isClassDeclaration(node)) {
        for (const clause of node.heritageClauses ?? []) {
          if (clause.token !== ts.SyntaxKind.ImplementsKeyword) continue;
          for (const implemented of clause.types) {
            const type = this.checker.getTypeAtLocation(implemented);
            for (const member of node.members) if (member.name && ts.isIdentifier(member.name)) add(type, member.name.text, member);
          }
        }
      } else if (ts.isObjectLiteralExpression(node)) {
        const type = this.checker.getContextualType(node);
        const declaration = type?.getSymbol()?.declarations?.[0];
        if (type && declaration && ts.isInterfaceDeclaration(declaration) && this.inProject(declaration)) {
          for (const property of node.properties) if (property.name && ts.isIdentifier(property.name)) add(type, property.name.text, property);
        }
      }
      ts.forEachChild(node, visit);
    };
    for (const source of this.program.getSourceFiles()) if (this.inProject(source)) visit(source);
    this.implementations = map;
    return map;
  }
}

/** Sites -> status -> codes. */
export function codesByStatus(sites: ErrorSite[]): Map<number, Set<string>> {
  const byStatus = new Map<number, Set<string>>();
  for (const site of sites) {
    for (const status of site.statuses) {
      const codes = byStatus.get(status) ?? new Set<string>();
      site.codes.forEach((code) => codes.add(code));
      byStatus.set(status, codes);
    }
  }
  return byStatus;
}

/**
 * What is thrown but not listed: `thrown` (status -> codes) against `listed` (the operation's
 * `x-error-codes`), for the statuses the operation declares (`declared`; an undeclared status is
 * the contract's other checks' business).
 */
export function unlistedCodes(thrown: Map<number, Set<string>>, listed: Record<string, string[]>, declared: string[]): string[] {
  const missing: string[] = [];
  for (const [status, codes] of thrown) {
    if (!declared.includes(String(status))) continue;
    for (const code of codes) if (!listed[String(status)]?.includes(code)) missing.push(`${status} ${code}`);
  }
  return missing.sort();
}

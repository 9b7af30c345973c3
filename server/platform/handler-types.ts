import type { operations } from '../../generated/api.js';
import type { HandlerContext } from './context.js';
import type { FileResult, Part as MultipartPart, RedirectResult } from './files.js';

/** Types of a handler, derived from the generated contract: nothing here restates the spec. */

export type OperationId = keyof operations;
type Op<K extends OperationId> = operations[K];

/**
 * A JSON answer's body, or a FileResult for answers that are files (PDF, images, spreadsheets);
 * an answer offered both ways (a list or its export) takes either.
 */
type Json<C> = C extends { content: infer Types }
  ? (Types extends { 'application/json': infer B } ? B : never) | (Exclude<keyof Types, 'application/json'> extends never ? never : FileResult)
  : never;
type SuccessStatus = 200 | 201 | 202 | 204 | 303;
/** A 204 has no body; a 303 (a form post sending the browser back to a page) is a redirect. */
type SuccessBody<O> = O extends { responses: infer R }
  ? { [S in keyof R]: S extends SuccessStatus ? (S extends 204 ? void : S extends 303 ? RedirectResult : Json<R[S]>) : never }[keyof R]
  : never;
/** Envelopes (`{statusCode, success, ...}`) are filled in by the server: handlers return the rest. */
type Unwrapped<B> = B extends { success: true } ? Omit<B, 'statusCode' | 'success'> : B;

type Part<O, P extends string> = O extends { parameters: infer Ps } ? (P extends keyof Ps ? NonNullable<Ps[P]> : never) : never;
type Content<O> = O extends { requestBody?: infer RB } ? (NonNullable<RB> extends { content: infer C } ? C : never) : never;
/**
 * The JSON body (absent when the operation also takes multipart and the caller sent that), or the
 * fields of an HTML form post.
 */
type Body<O> = Content<O> extends { 'application/json': infer B }
  ? B | (Content<O> extends { 'multipart/form-data': unknown } ? undefined : never)
  : Content<O> extends { 'application/x-www-form-urlencoded': infer F } ? F : undefined;
type Parts<O> = Content<O> extends { 'multipart/form-data': unknown } ? AsyncIterable<MultipartPart> | undefined : undefined;

export interface HandlerRequest<K extends OperationId> {
  params: Part<Op<K>, 'path'>;
  query: Part<Op<K>, 'query'>;
  body: Body<Op<K>>;
  /** The parts of a multipart body, read in order as they stream in. */
  parts: Parts<Op<K>>;
  headers: Record<string, string | string[] | undefined>;
  ip: string;
  /** The query parameters the caller sent, before the contract's defaults were filled in. */
  sentQuery: ReadonlySet<string>;
}

export type HandlerResult<K extends OperationId> = Unwrapped<SuccessBody<Op<K>>>;

/** One operation's handler: plain data in, plain data out, typed errors thrown. */
export type Handler<K extends OperationId> = (ctx: HandlerContext, req: HandlerRequest<K>) => Promise<HandlerResult<K>>;

/** The map every operation must appear in (checked by `tsc`). */
export type HandlerMap = { [K in OperationId]: Handler<K> };

// tsc compares Handler<A> with Handler<B> by operationId alone, so an alias needs a cast; these
// member-wise checks keep the cast honest: both operations take and answer exactly the same.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Interchangeable<A extends OperationId, B extends OperationId> = [
  Same<HandlerRequest<A>['params'], HandlerRequest<B>['params']>,
  Same<HandlerRequest<A>['query'], HandlerRequest<B>['query']>,
  Same<HandlerRequest<A>['body'], HandlerRequest<B>['body']>,
  Same<HandlerResult<A>, HandlerResult<B>>,
] extends [true, true, true, true] ? true : false;

/** The canonical handler, unchanged, serving a deprecated alias operation with the same contract. */
export function aliasOf<Alias extends OperationId>() {
  return <Canonical extends OperationId>(
    handler: Handler<Canonical>,
    ...contractCheck: Interchangeable<Alias, Canonical> extends true ? [] : [contractsDiffer: never]
  ) => handler as unknown as Handler<Alias>;
}

/**
 * The console's building blocks, in the site's own patterns: a status line while a call is out, an
 * alert with the API's message and Retry when one fails, money in the object's currency, lists
 * paged by the API's cursor, and decision forms that say what the API answered.
 */
import { useContext, useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { useInfiniteQuery, useMutation, useQueryClient, type QueryKey } from '@tanstack/react-query';
import { problemOf, type Schemas } from './api';
import { ConsoleContext, useConsole } from './context';

export function ErrorBox({ error, onRetry }: { error: unknown; onRetry?: () => void }): ReactNode {
  // Also shown before sign-in (outside the console's context), where no base URL is known yet.
  const baseUrl = useContext(ConsoleContext)?.baseUrl ?? '';
  return (
    <div className="alert alert--danger margin-vert--sm" role="alert">
      <p className="margin-bottom--sm">{problemOf(error, baseUrl)}</p>
      {onRetry && <button type="button" className="button button--secondary button--sm" onClick={onRetry}>Retry</button>}
    </div>
  );
}

export function Spinner({ label }: { label: string }): ReactNode {
  return <p role="status" aria-live="polite" className="console__loading">{label}</p>;
}

/** A call's outcome said out loud to screen readers, and shown. */
export function Done({ children }: { children: ReactNode }): ReactNode {
  return <div className="alert alert--success margin-vert--sm" role="status">{children}</div>;
}

/** An amount in its currency, as the API sent it (a decimal string or number), never through float arithmetic. */
export function Money({ amount, currency }: { amount: number | string | null | undefined; currency: string }): ReactNode {
  if (amount === null || amount === undefined) return <span>—</span>;
  const [whole, fraction = ''] = String(amount).split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return <span className="console__money">{currency} {grouped}.{(fraction + '00').slice(0, 2)}</span>;
}

export function When({ at }: { at: string | null | undefined }): ReactNode {
  if (!at) return <span>—</span>;
  const date = new Date(at);
  return <time dateTime={at}>{at.length === 10 ? at : date.toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'short' })}</time>;
}

const TONE: Record<string, string> = {
  ACTIVE: 'success', APPROVED: 'success', VERIFIED: 'success', SETTLED: 'success', FULLY_PAID: 'success',
  PENDING_APPROVAL: 'warning', PENDING_PAYMENT: 'warning', PENDING_VERIFICATION: 'warning', PENDING_REVIEW: 'warning', PROCESSING: 'warning', REVIEW: 'warning', SETTLEMENT: 'warning',
  REJECTED: 'danger', ERROR: 'danger', DECLINED: 'danger', CANCELLED: 'danger', REPUDIATION: 'danger',
};

/** A state or status as the API names it; its tone is decoration, the text says it all. */
export function Badge({ value }: { value: string | null | undefined }): ReactNode {
  if (!value) return null;
  return <span className={`badge badge--${TONE[value] ?? 'secondary'} console__badge`} data-value={value}>{value}</span>;
}

/** Label and value pairs, as a description list. */
export function Facts({ items }: { items: [string, ReactNode][] }): ReactNode {
  return (
    <dl className="console__facts">
      {items.map(([label, value]) => (
        <div key={label} className="console__fact"><dt>{label}</dt><dd>{value}</dd></div>
      ))}
    </dl>
  );
}

/** A screen's heading, focused when the screen opens so a screen reader and the keyboard start there. */
export function ScreenHeading({ children, id }: { children: ReactNode; id?: string }): ReactNode {
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => { ref.current?.focus(); }, []);
  return <h2 ref={ref} id={id} tabIndex={-1} className="console__screen-heading">{children}</h2>;
}

type Paginator = Schemas['Paginator'];
export interface PageOf<T> { data: T[]; paginator: Paginator }
/** Where the next page starts: the API's cursor when it gives one, else the next page number. */
export interface PageParam { after?: string; page?: number }

/**
 * A list the API pages: the first page, then "Load more" while there is more (by `nextCursor` where
 * the list has one, else by page number). `columns` head the table; `row` draws one item's cells.
 */
export function PagedTable<T extends { id: string }>({ queryKey, fetchPage, caption, columns, row, empty }: {
  queryKey: QueryKey;
  fetchPage: (page: PageParam) => Promise<PageOf<T>>;
  caption: string;
  columns: string[];
  row: (item: T) => ReactNode;
  empty: string;
}): ReactNode {
  const list = useInfiniteQuery({
    queryKey,
    initialPageParam: {} as PageParam,
    queryFn: ({ pageParam }) => fetchPage(pageParam),
    getNextPageParam: (last): PageParam | undefined => {
      if (last.paginator.nextCursor) return { after: last.paginator.nextCursor };
      return last.paginator.hasNextPage && last.paginator.nextPage ? { page: last.paginator.nextPage } : undefined;
    },
  });
  if (list.isPending) return <Spinner label={`Loading ${caption.toLowerCase()}…`} />;
  if (list.isError && !list.isFetchNextPageError) return <ErrorBox error={list.error} onRetry={() => list.refetch()} />;
  if (!list.data) return null;
  const items = list.data.pages.flatMap((page) => page.data);
  const total = list.data.pages[0]?.paginator.itemsCount ?? items.length;
  if (items.length === 0) return <p>{empty}</p>;
  return (
    <div className="console__list">
      <div className="console__table-scroll" role="region" aria-label={caption} tabIndex={0}>
        <table className="console__table">
          <caption>{caption}: {items.length} of {total}</caption>
          <thead><tr>{columns.map((column) => <th key={column} scope="col">{column}</th>)}</tr></thead>
          <tbody>{items.map((item) => <tr key={item.id} data-id={item.id}>{row(item)}</tr>)}</tbody>
        </table>
      </div>
      {list.hasNextPage && (
        <button type="button" className="button button--secondary button--sm" onClick={() => list.fetchNextPage()} disabled={list.isFetchingNextPage}>
          {list.isFetchingNextPage ? 'Loading…' : 'Load more'}
        </button>
      )}
      {list.isFetchNextPageError && <ErrorBox error={list.error} onRetry={() => list.fetchNextPage()} />}
    </div>
  );
}

/** A field of a form: its label tied to its input, a hint when it needs one. */
export function Field({ label, hint, children }: { label: string; hint?: string; children: (id: string, describedBy?: string) => ReactNode }): ReactNode {
  const id = useId();
  const hintId = hint ? `${id}-hint` : undefined;
  return (
    <div className="console__field">
      <label htmlFor={id}>{label}</label>
      {children(id, hintId)}
      {hint && <small id={hintId} className="console__hint">{hint}</small>}
    </div>
  );
}

/**
 * A decision on one object (approve, reject, move, close…): a button that opens a small form, its
 * free text required or optional as the operation says, sent once; the API's refusal is shown in
 * place. `operationId` is the permission table's row: the action is offered only when the signed-in
 * member may take it, unless the reader asked to see refused actions too (then it is marked so).
 */
export function Decision({ operationId, label, text, submit, invalidates, tone = 'primary', onDone }: {
  operationId: string;
  label: string;
  /** The free text the operation takes: its label and whether it is required. */
  text?: { label: string; required: boolean };
  submit: (text: string) => Promise<unknown>;
  invalidates: QueryKey[];
  tone?: 'primary' | 'danger' | 'secondary';
  onDone?: () => void;
}): ReactNode {
  const { can, showRefused } = useConsole();
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const id = useId();
  const call = useMutation({
    mutationFn: (value: string) => submit(value),
    onSuccess: async () => {
      setOpen(false);
      await Promise.all(invalidates.map((queryKey) => queryClient.invalidateQueries({ queryKey })));
      onDone?.();
    },
  });
  const allowed = can(operationId);
  if (!allowed && !showRefused) return null;
  const name = allowed ? label : `${label} (not permitted)`;
  const send = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    call.mutate(String(new FormData(event.currentTarget).get('text') ?? ''));
  };
  if (!text) {
    return (
      <span className="console__decision">
        <button type="button" className={`button button--${tone} button--sm`} disabled={call.isPending} onClick={() => call.mutate('')}>{name}</button>
        {call.isError && <ErrorBox error={call.error} />}
      </span>
    );
  }
  return (
    <span className="console__decision">
      {!open && <button type="button" className={`button button--${tone} button--sm`} aria-expanded={false} onClick={() => setOpen(true)}>{name}</button>}
      {open && (
        <form onSubmit={send} className="console__inline-form" aria-label={label}>
          <label htmlFor={`${id}-text`}>{text.label}{text.required ? '' : ' (optional)'}</label>
          <input id={`${id}-text`} name="text" required={text.required} maxLength={1000} autoFocus />
          <button type="submit" className={`button button--${tone} button--sm`} disabled={call.isPending}>{name}</button>
          <button type="button" className="button button--link button--sm" onClick={() => { setOpen(false); call.reset(); }}>Cancel</button>
        </form>
      )}
      {call.isError && <ErrorBox error={call.error} />}
    </span>
  );
}

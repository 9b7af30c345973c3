/**
 * The Send API Request panel pre-fills a request with the operation's first example, and a reader
 * who presses Send records it for real. For a staff decision (approve, reject, settle, close, move a
 * stage or state, deactivate, cancel), the docs' copy of the contract therefore puts an example
 * without free text first where the contract has one, and marks every free-text field of the others
 * as text to write, so no invented note is recorded as if someone had written it. The contract
 * itself keeps its realistic examples.
 */
const DECISION_PATH = /\/(approve|reject|reviews|settlements|stage|state|close|deactivate|cancel)$/;

/** Free text a person writes with a decision (an amount, a date or a choice is left as it is). */
const FREE_TEXT = new Set(['notes', 'reason', 'inspectionNotes', 'generalNotes', 'paymentMethodInfo', 'recipient']);

export const EDIT_MARK = 'Example, edit before sending: ';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
interface Example { summary?: string; value?: Json }

const hasFreeText = (value: Json | undefined): boolean =>
  !!value && typeof value === 'object' && !Array.isArray(value) && Object.keys(value).some((key) => FREE_TEXT.has(key));

function marked(value: Json | undefined): Json | undefined {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return value;
  return Object.fromEntries(Object.entries(value).map(([key, v]) => [key, FREE_TEXT.has(key) && typeof v === 'string' ? `${EDIT_MARK}${v}` : v]));
}

/** The decision operations' request examples, reordered and marked (a copy; the input is not changed). */
export function withDecisionExamples<T extends { paths?: Record<string, Record<string, any>> }>(contract: T): T {
  const copy = structuredClone(contract);
  for (const [path, item] of Object.entries(copy.paths ?? {})) {
    if (!DECISION_PATH.test(path) || !item.post) continue;
    const media = item.post.requestBody?.content?.['application/json'];
    if (!media) continue;
    if (media.example !== undefined) media.example = marked(media.example);
    if (media.examples) {
      const entries = Object.entries<Example>(media.examples);
      const plain = entries.filter(([, example]) => !hasFreeText(example.value));
      const rest = entries.filter(([, example]) => hasFreeText(example.value))
        .map(([name, example]) => [name, { ...example, value: marked(example.value) }] as const);
      media.examples = Object.fromEntries([...plain, ...rest]);
    }
  }
  return copy;
}

import { readFileSync } from 'node:fs';
import { parser } from '@prometheus-io/lezer-promql';
import { parse as parseYaml } from 'yaml';
import { createHarness, type Harness } from '../helpers/harness.js';

/**
 * The sample alerting rules the Operating page links (docs/static/operating/coverline-alerts.yml):
 * each expression is PromQL that Prometheus's own parser (lezer-promql, the grammar of its UI)
 * reads without an error, and every metric it names is one a running API exports, so a renamed
 * metric fails here rather than in someone's silent alert.
 */

const RULES_FILE = 'docs/static/operating/coverline-alerts.yml';
const TOKEN = 'metrics-token-for-the-alert-rules-0123456789';
/** Series Prometheus makes itself, not the API. */
const PROMETHEUS_OWN = new Set(['up']);

interface Rule { alert: string; expr: string; for?: string; labels?: Record<string, string>; annotations?: Record<string, string> }
const rules: Rule[] = (parseYaml(readFileSync(RULES_FILE, 'utf8')) as { groups: { rules: Rule[] }[] }).groups.flatMap((g) => g.rules);

/** The metric names an expression selects (the identifiers of its vector selectors), and whether it parsed cleanly. */
function selectors(expr: string): { metrics: string[]; errors: string[] } {
  const tree = parser.parse(expr);
  const metrics: string[] = [];
  const errors: string[] = [];
  tree.iterate({
    enter(node) {
      if (node.type.isError) errors.push(`at ${node.from}: ${JSON.stringify(expr.slice(Math.max(0, node.from - 10), node.to + 10))}`);
      if (node.name === 'Identifier' && node.node.parent?.name === 'VectorSelector') metrics.push(expr.slice(node.from, node.to));
    },
  });
  return { metrics, errors };
}

let h: Harness;
let exported: Set<string>;
beforeAll(async () => {
  h = await createHarness({ metricsToken: TOKEN });
  // A request, so the request families have samples as well as their TYPE lines.
  await h.call({ method: 'GET', url: '/api/v1/currencies' });
  const res = await h.call({ method: 'GET', url: '/api/v1/metrics', apiKey: null, token: TOKEN });
  expect(res.statusCode).toBe(200);
  exported = new Set([...res.body.matchAll(/^# TYPE (\S+) (\S+)$/gm)].flatMap(([, name, type]) =>
    type === 'histogram' ? [`${name}_bucket`, `${name}_sum`, `${name}_count`] : type === 'summary' ? [name, `${name}_sum`, `${name}_count`] : [name]));
});
afterAll(async () => { await h.close(); });

it('the rules file has rules, each with a name, an expression, a severity and a summary', () => {
  expect(rules.length).toBeGreaterThanOrEqual(8);
  for (const rule of rules) {
    expect(rule.alert).toMatch(/^Coverline[A-Za-z]+$/);
    expect(rule.labels?.severity).toMatch(/^(page|ticket)$/);
    expect(rule.annotations?.summary).toBeTruthy();
  }
});

it.each(rules.map((rule) => [rule.alert, rule.expr] as const))('%s: parses as PromQL and names only metrics the API exports', (_alert, expr) => {
  const { metrics, errors } = selectors(expr);
  expect(errors).toEqual([]);
  expect(metrics.length).toBeGreaterThan(0);
  for (const metric of metrics) {
    if (!PROMETHEUS_OWN.has(metric)) expect({ metric, exported: exported.has(metric) }).toEqual({ metric, exported: true });
  }
});

it('the checker itself catches a broken expression and an unknown metric', () => {
  expect(selectors('sum(rate(coverline_http_requests_total[5m])').errors.length).toBeGreaterThan(0);
  expect(exported.has('coverline_http_requests_totl')).toBe(false);
  expect(selectors('coverline_db_up == 0').metrics).toEqual(['coverline_db_up']);
});

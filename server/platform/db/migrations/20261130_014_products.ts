import { sql, type Kysely } from 'kysely';

// Frozen once released: later changes go in a new migration.
// Products managed by staff: who created a product and who assigned it are staff members, who last
// activated or deactivated it and when, and commissions of a known shape (PERCENTAGE 0 to 100, FEE
// an amount of 0 or more, both with at most two decimal places; SQL null or JSON null for none).
const commissionCheck = (column: string) => `check (case
    when ${column} is null or jsonb_typeof(${column}) = 'null' then true
    when jsonb_typeof(${column}) <> 'object' or jsonb_typeof(${column}->'value') is distinct from 'number' then false
    else ${column}->>'type' in ('FEE','PERCENTAGE')
      and (${column}->>'value')::numeric >= 0
      and (${column}->>'value')::numeric = round((${column}->>'value')::numeric, 2)
      and (${column}->>'type' = 'FEE' or (${column}->>'value')::numeric <= 100)
  end)`;

const COMMISSIONS = ['standard_commission', 'overrider_commission', 'other_commission'];

const up = [
  `alter table products
    add column status_changed_by uuid references staff(id),
    add column status_changed_at timestamptz`,
  `alter table products add constraint products_created_by_fkey foreign key (created_by) references staff(id)`,
  `alter table product_assignments add constraint product_assignments_assigned_by_fkey foreign key (assigned_by) references staff(id)`,
  ...COMMISSIONS.map((column) => `alter table products add constraint products_${column}_shape ${commissionCheck(column)}`),
  // A staff list of the company's own products, and the companies a product is assigned to.
  `create index products_owner_idx on products (owner_tenant_id, name)`,
  `create index product_assignments_product_idx on product_assignments (product_id)`,
];

const down = [
  `drop index product_assignments_product_idx`,
  `drop index products_owner_idx`,
  ...COMMISSIONS.map((column) => `alter table products drop constraint products_${column}_shape`),
  `alter table product_assignments drop constraint product_assignments_assigned_by_fkey`,
  `alter table products drop constraint products_created_by_fkey`,
  `alter table products drop column status_changed_at, drop column status_changed_by`,
];

export const products = {
  async up(db: Kysely<any>) { for (const statement of up) await sql.raw(statement).execute(db); },
  async down(db: Kysely<any>) { for (const statement of down) await sql.raw(statement).execute(db); },
};

/**
 * The organisation, for those the permission table lets manage it: branches, departments and
 * staff, each listed and created here. A new staff member sets their own password from the set-up
 * code the API sends.
 */
import { useState, type ReactNode } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { newIdempotencyKey, unwrap, type Schemas } from '../api';
import { useConsole } from '../context';
import { Badge, Done, ErrorBox, Field, PagedTable, ScreenHeading } from '../ui';

const POSITIONS: Schemas['StaffPosition'][] = ['LEVEL_OFFICER', 'HEAD_OF_DEPARTMENT', 'BRANCH_MANAGER', 'EXECUTIVE_MANAGER'];

/** A create form that opens from a button, sends once per opening (its own Idempotency-Key) and says what the API answered. */
function CreateForm({ operationId, label, children, send, invalidates }: {
  operationId: string;
  label: string;
  children: ReactNode;
  send: (form: FormData, idempotencyKey: string) => Promise<unknown>;
  invalidates: unknown[];
}): ReactNode {
  const { can } = useConsole();
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const [idempotencyKey, setIdempotencyKey] = useState(newIdempotencyKey);
  const create = useMutation({
    mutationFn: (form: FormData) => send(form, idempotencyKey),
    onSuccess: async () => {
      setOpen(false);
      setIdempotencyKey(newIdempotencyKey());
      await queryClient.invalidateQueries({ queryKey: invalidates });
    },
  });
  if (!can(operationId)) return null;
  if (!open) {
    return (
      <div>
        <button type="button" className="button button--primary button--sm" onClick={() => { create.reset(); setOpen(true); }}>{label}</button>
        {create.isSuccess && <Done>Created.</Done>}
      </div>
    );
  }
  return (
    <form className="console__grid-form" aria-label={label} onSubmit={(event) => { event.preventDefault(); create.mutate(new FormData(event.currentTarget)); }}>
      {children}
      <div className="console__actions">
        <button type="submit" className="button button--primary button--sm" disabled={create.isPending}>Create</button>
        <button type="button" className="button button--link button--sm" onClick={() => setOpen(false)}>Cancel</button>
      </div>
      {create.isError && <ErrorBox error={create.error} />}
    </form>
  );
}

const text = (form: FormData, name: string) => String(form.get(name) ?? '').trim();
const optional = (form: FormData, name: string) => text(form, name) || undefined;

export function Organisation(): ReactNode {
  const { api, baseUrl, can } = useConsole();
  const branchesKey = [baseUrl, 'staff', 'branches'];
  const departmentsKey = [baseUrl, 'staff', 'departments'];
  const staffKey = [baseUrl, 'staff', 'members'];
  // Every branch and department (each list is short), for the create forms' choices.
  const branches = useQuery({ queryKey: [...branchesKey, 'all'], queryFn: async () => (await unwrap(api.GET('/staff/branches', { params: { query: { limit: 100 } } }))).data });
  const departments = useQuery({ queryKey: [...departmentsKey, 'all'], queryFn: async () => (await unwrap(api.GET('/staff/departments', { params: { query: { limit: 100 } } }))).data });

  return (
    <>
      <ScreenHeading>Organisation</ScreenHeading>
      <section aria-labelledby="console-branches">
        <h3 id="console-branches">Branches</h3>
        <CreateForm operationId="createBranch" label="Create a branch" invalidates={branchesKey}
          send={(form, key) => unwrap(api.POST('/staff/branches', { params: { header: { 'Idempotency-Key': key } }, body: { name: text(form, 'name'), address: optional(form, 'address') } }))}>
          <Field label="Branch name">{(id) => <input id={id} name="name" required maxLength={200} autoFocus />}</Field>
          <Field label="Address">{(id) => <input id={id} name="address" maxLength={500} />}</Field>
        </CreateForm>
        <PagedTable<Schemas['Branch']>
          queryKey={branchesKey} caption="Branches" empty="No branch yet." columns={['Branch', 'Address']}
          fetchPage={(page) => unwrap(api.GET('/staff/branches', { params: { query: { limit: 20, page: page.page } } }))}
          row={(branch) => <><td>{branch.name}</td><td>{branch.address ?? '—'}</td></>}
        />
      </section>
      <section aria-labelledby="console-departments">
        <h3 id="console-departments">Departments</h3>
        <CreateForm operationId="createDepartment" label="Create a department" invalidates={departmentsKey}
          send={(form, key) => unwrap(api.POST('/staff/departments', { params: { header: { 'Idempotency-Key': key } }, body: { name: text(form, 'name'), branchId: text(form, 'branchId') } }))}>
          <Field label="Department name">{(id) => <input id={id} name="name" required maxLength={200} autoFocus />}</Field>
          <Field label="Branch">{(id) => (
            <select id={id} name="branchId" required>{branches.data?.map((branch) => <option key={branch.id} value={branch.id}>{branch.name}</option>)}</select>
          )}</Field>
        </CreateForm>
        <PagedTable<Schemas['Department']>
          queryKey={departmentsKey} caption="Departments" empty="No department yet." columns={['Department', 'Branch']}
          fetchPage={(page) => unwrap(api.GET('/staff/departments', { params: { query: { limit: 20, page: page.page } } }))}
          row={(department) => <><td>{department.name}</td><td>{department.branch?.name ?? '—'}</td></>}
        />
      </section>
      <section aria-labelledby="console-members">
        <h3 id="console-members">Staff</h3>
        {can('createStaffMember') && <p className="console__hint">A new member receives a set-up code and chooses their own password.</p>}
        <CreateForm operationId="createStaffMember" label="Add a staff member" invalidates={staffKey}
          send={(form, key) => unwrap(api.POST('/staff/members', {
            params: { header: { 'Idempotency-Key': key } },
            body: {
              firstName: text(form, 'firstName'), lastName: text(form, 'lastName'), email: text(form, 'email'),
              position: text(form, 'position') as Schemas['StaffPosition'], type: text(form, 'type') as 'AGENT' | 'NORMAL_STAFF',
              departmentId: optional(form, 'departmentId'),
            },
          }))}>
          <Field label="First name">{(id) => <input id={id} name="firstName" required maxLength={100} autoFocus />}</Field>
          <Field label="Last name">{(id) => <input id={id} name="lastName" required maxLength={100} />}</Field>
          <Field label="E-mail">{(id) => <input id={id} name="email" type="email" required maxLength={254} />}</Field>
          <Field label="Position">{(id) => <select id={id} name="position">{POSITIONS.map((position) => <option key={position}>{position}</option>)}</select>}</Field>
          <Field label="Type">{(id) => <select id={id} name="type"><option value="NORMAL_STAFF">Staff</option><option value="AGENT">Agent</option></select>}</Field>
          <Field label="Department">{(id) => (
            <select id={id} name="departmentId"><option value="">None</option>{departments.data?.map((department) => <option key={department.id} value={department.id}>{department.name}</option>)}</select>
          )}</Field>
        </CreateForm>
        <PagedTable<Schemas['Staff']>
          queryKey={staffKey} caption="Staff" empty="No staff member." columns={['Name', 'E-mail', 'Position', 'Type', 'Active']}
          fetchPage={(page) => unwrap(api.GET('/staff/members', { params: { query: { limit: 20, page: page.page } } }))}
          row={(member) => <><td>{member.fullName}</td><td>{member.email}</td><td><Badge value={member.position} /></td><td>{member.type}</td><td>{member.isActive ? 'Yes' : 'No'}</td></>}
        />
      </section>
    </>
  );
}

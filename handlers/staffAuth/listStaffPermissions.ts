import type { Handler } from '../../server/platform/handler-types.js';
import { permissionList } from '../../server/domain/staff/permissions.js';

/** The staff permission table the server enforces, as data. */
export const listStaffPermissions: Handler<'listStaffPermissions'> = async () => ({ data: permissionList() });

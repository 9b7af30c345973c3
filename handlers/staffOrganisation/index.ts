import { activateStaffMember } from './activateStaffMember.js';
import { createBranch } from './createBranch.js';
import { createDepartment } from './createDepartment.js';
import { createStaffMember } from './createStaffMember.js';
import { deactivateStaffMember } from './deactivateStaffMember.js';
import { deleteBranch } from './deleteBranch.js';
import { deleteDepartment } from './deleteDepartment.js';
import { getBranch } from './getBranch.js';
import { getDepartment } from './getDepartment.js';
import { getStaffMember } from './getStaffMember.js';
import { listBranches } from './listBranches.js';
import { listDepartments } from './listDepartments.js';
import { listStaffMembers } from './listStaffMembers.js';
import { updateBranch } from './updateBranch.js';
import { updateDepartment } from './updateDepartment.js';
import { updateStaffMember } from './updateStaffMember.js';

export const staffOrganisationHandlers = {
  createBranch, listBranches, getBranch, updateBranch, deleteBranch,
  createDepartment, listDepartments, getDepartment, updateDepartment, deleteDepartment,
  createStaffMember, listStaffMembers, getStaffMember, updateStaffMember, deactivateStaffMember, activateStaffMember,
};

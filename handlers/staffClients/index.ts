import { activateStaffClient } from './activateStaffClient.js';
import { createStaffClient } from './createStaffClient.js';
import { deactivateStaffClient } from './deactivateStaffClient.js';
import { getStaffClient } from './getStaffClient.js';
import { listStaffClients } from './listStaffClients.js';
import { updateStaffClient } from './updateStaffClient.js';

export const staffClientsHandlers = {
  createStaffClient, listStaffClients, getStaffClient, updateStaffClient, deactivateStaffClient, activateStaffClient,
};

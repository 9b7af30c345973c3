import { activateStaffClient } from './activateStaffClient.js';
import { createStaffClient } from './createStaffClient.js';
import { deactivateStaffClient } from './deactivateStaffClient.js';
import { getStaffClient } from './getStaffClient.js';
import { listStaffClients } from './listStaffClients.js';
import { updateStaffClient } from './updateStaffClient.js';
import { uploadDocumentsForClient } from './uploadDocumentsForClient.js';
import { listDocumentsForClient } from './listDocumentsForClient.js';
import { downloadStaffDocument } from './downloadStaffDocument.js';
import { deleteStaffDocument } from './deleteStaffDocument.js';
import { sendClientSetUpCode } from './sendClientSetUpCode.js';

export const staffClientsHandlers = {
  createStaffClient, listStaffClients, getStaffClient, updateStaffClient, deactivateStaffClient, activateStaffClient,
  uploadDocumentsForClient, listDocumentsForClient, downloadStaffDocument, deleteStaffDocument, sendClientSetUpCode,
};

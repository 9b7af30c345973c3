import { deleteDocument } from './deleteDocument.js';
import { downloadDocument } from './downloadDocument.js';
import { uploadDocuments } from './uploadDocuments.js';

export const documentHandlers = {
  uploadDocuments,
  downloadDocument,
  deleteDocument,
};

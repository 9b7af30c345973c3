export const documentHandlers = {};

export const lookupHandlers = {};
